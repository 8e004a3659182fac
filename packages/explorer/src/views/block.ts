/** A block: its header, its chunks, and each chunk's transactions and receipts. */

import { accountLink, blockLink, card, facts, h, link, short, table, txLink } from '../dom.js';
import { gas, time } from '../format.js';
import type { Json } from '../json.js';
import { rpc } from '../rpc.js';
import { actionSummary } from './actions.js';

export async function blockView(id: string): Promise<HTMLElement> {
  const block = await rpc('block', { block_id: /^\d+$/.test(id) ? Number(id) : id });
  const header = block.header;
  const included = block.chunks.filter((c: Json) => c.height_included === header.height);
  const chunks = await Promise.all(included.map((c: Json) => rpc('chunk', { chunk_id: c.chunk_hash })));
  return h(
    'div',
    null,
    card(
      `Block ${header.height}`,
      facts([
        ['hash', h('code', null, header.hash)],
        ['previous', header.height > 0 ? blockLink(header.prev_hash) : '—'],
        ['time', time(header.timestamp_nanosec)],
        ['author', accountLink(block.author)],
        ['gas price', `${header.gas_price} yocto/gas`],
        ['epoch', h('code', null, header.epoch_id)],
        [
          'next',
          h(
            'span',
            null,
            link(`/block/${header.height + 1}`, `height ${header.height + 1}`),
            h('span', { class: 'muted' }, ' (if produced; fast-forward skips heights)'),
          ),
        ],
      ]),
    ),
    card(
      `Chunks (${block.chunks.length} shard${block.chunks.length === 1 ? '' : 's'})`,
      table(
        ['shard', 'chunk hash', 'included', 'gas used', 'gas limit'],
        block.chunks.map((c: Json) => [
          String(c.shard_id),
          h('code', { title: c.chunk_hash }, short(c.chunk_hash)),
          c.height_included === header.height ? 'new in this block' : `kept from ${c.height_included}`,
          gas(c.gas_used),
          gas(c.gas_limit),
        ]),
      ),
    ),
    ...chunks.map((chunk: Json) =>
      card(
        `Shard ${chunk.header.shard_id}`,
        h('h3', null, `Transactions (${chunk.transactions.length})`),
        table(
          ['hash', 'signer', 'receiver', 'actions'],
          chunk.transactions.map((t: Json) => [
            txLink(t.hash, t.signer_id),
            accountLink(t.signer_id),
            accountLink(t.receiver_id),
            actionSummary(t.actions),
          ]),
          'no transactions',
        ),
        h('h3', null, `Receipts (${chunk.receipts.length})`),
        table(
          ['receipt', 'from', 'to', 'what'],
          chunk.receipts.map((r: Json) => [
            link(`/receipt/${r.receipt_id}`, short(r.receipt_id), r.receipt_id),
            accountLink(r.predecessor_id),
            accountLink(r.receiver_id),
            r.receipt.Action ? actionSummary(r.receipt.Action.actions) : 'data',
          ]),
          'no receipts',
        ),
      ),
    ),
  );
}
