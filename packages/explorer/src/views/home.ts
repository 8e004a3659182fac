/** The front page: the latest blocks, live from `/events/blocks` (live.ts), and the dev controls. */

import { blockLink, card, h, replace, short, table } from '../dom.js';
import { time } from '../format.js';
import type { Json } from '../json.js';
import { type LiveEvent, onLive } from '../live.js';
import { rpc } from '../rpc.js';
import { scannedBlock } from '../scan.js';
import { devControls } from './dev-controls.js';

const SHOWN = 25;

export function home(): { view: HTMLElement; dispose: () => void } {
  const rows = h('div', null, h('p', { class: 'muted' }, 'loading…'));
  // By hash: the initial read and the live events may bring the same block.
  const blocks = new Map<string, Json>();
  const txCounts = new Map<string, number>();
  let closed = false;
  const render = () => {
    const shown = [...blocks.values()].sort((a, b) => b.header.height - a.header.height).slice(0, SHOWN);
    for (const b of blocks.values()) if (!shown.includes(b)) blocks.delete(b.header.hash);
    replace(
      rows,
      table(
        ['height', 'hash', 'time', 'transactions', 'gas price (yocto/gas)'],
        shown.map((b, i) => [
          h('span', null, blockLink(b.header.height), skipped(b, shown[i + 1])),
          blockLink(b.header.hash, short(b.header.hash)),
          time(b.header.timestamp_nanosec),
          txCounts.has(b.header.hash) ? String(txCounts.get(b.header.hash) || '—') : '…',
          b.header.gas_price,
        ]),
      ),
    );
  };
  const add = (block: Json) => {
    blocks.set(block.header.hash, block);
    // The count needs the chunks: read them after the row is shown.
    void scannedBlock(block.header.hash).then((s) => {
      txCounts.set(
        block.header.hash,
        s.chunks.reduce((n, c) => n + c.transactions.length, 0),
      );
      if (!closed) render();
    });
  };
  const load = async () => {
    let block = await rpc('block', { finality: 'optimistic' });
    blocks.clear();
    add(block);
    while (blocks.size < SHOWN && block.header.height > 0) {
      try {
        block = await rpc('block', { block_id: block.header.prev_hash });
      } catch {
        break;
      }
      add(block);
    }
    if (!closed) render();
  };
  const onBlock = async ({ hash }: LiveEvent) => {
    if (blocks.has(hash)) return;
    const block = await rpc('block', { block_id: hash });
    if (closed) return;
    add(block);
    render();
  };
  // After a revert the head moved back: read the list again.
  const stopLive = onLive((e) => void (e.type === 'rewind' ? load() : onBlock(e)));
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
      stopLive();
    },
  };
}

/** Heights between a block and the one before it that no block has (fast-forward, or blocks not produced). */
function skipped(block: Json, previous: Json | undefined) {
  if (!previous || previous.header.hash !== block.header.prev_hash) return null;
  const gap = block.header.height - previous.header.height - 1;
  return gap > 0
    ? h(
        'span',
        {
          class: 'tag',
          title: `heights ${previous.header.height + 1}–${block.header.height - 1} have no block`,
        },
        `${gap} skipped`,
      )
    : null;
}
