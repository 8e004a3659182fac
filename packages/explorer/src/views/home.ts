/** The front page: the latest blocks, live from `/events/blocks`, and the dev controls. */

import { blockLink, card, h, replace, short, table } from '../dom.js';
import { time } from '../format.js';
import type { Json } from '../json.js';
import { rpc } from '../rpc.js';
import { devControls } from './dev-controls.js';

const SHOWN = 25;

export function home(): { view: HTMLElement; dispose: () => void } {
  const rows = h('div', null, h('p', { class: 'muted' }, 'loading…'));
  const blocks: Json[] = [];
  const render = () =>
    replace(
      rows,
      table(
        ['height', 'hash', 'time', 'chunks', 'transactions', 'gas price'],
        blocks.map((b) => [
          blockLink(b.header.height),
          blockLink(b.header.hash, short(b.header.hash)),
          time(b.header.timestamp_nanosec),
          String(b.chunks.length),
          h('span', { 'data-tx-count': '' }, txCount(b)),
          b.header.gas_price,
        ]),
      ),
    );
  let closed = false;
  const load = async () => {
    let block = await rpc('block', { finality: 'optimistic' });
    blocks.length = 0;
    blocks.push(block);
    while (blocks.length < SHOWN && block.header.height > 0) {
      try {
        block = await rpc('block', { block_id: block.header.prev_hash });
      } catch {
        break;
      }
      blocks.push(block);
    }
    render();
  };
  const events = new EventSource('/events/blocks');
  const onBlock = async (event: MessageEvent) => {
    const { hash } = JSON.parse(event.data);
    if (blocks.some((b) => b.header.hash === hash)) return;
    const block = await rpc('block', { block_id: hash });
    if (closed) return;
    blocks.unshift(block);
    blocks.sort((a, b) => b.header.height - a.header.height);
    blocks.length = Math.min(blocks.length, SHOWN);
    render();
  };
  events.addEventListener('block', (e) => void onBlock(e as MessageEvent));
  // After a revert the head moved back: read the list again.
  events.addEventListener('rewind', () => void load());
  void load();
  const view = h(
    'div',
    { class: 'home' },
    card(
      h('span', null, 'Latest blocks ', h('span', { class: 'live', title: 'updated live' }, '● live')),
      rows,
    ),
    devControls(),
  );
  return {
    view,
    dispose: () => {
      closed = true;
      events.close();
    },
  };
}

/** Transactions in the block's chunks, from the chunk headers (`tx_root` is all zeros when there are none). */
function txCount(block: Json): string {
  const included = block.chunks.filter((c: Json) => c.height_included === block.header.height);
  const withTx = included.filter((c: Json) => !/^1{32}$/.test(c.tx_root)).length;
  return withTx === 0 ? '—' : `in ${withTx} chunk${withTx > 1 ? 's' : ''}`;
}
