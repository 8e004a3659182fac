/**
 * Search: a height, a block hash, a transaction hash, a receipt id or an account id. Hashes are looked up
 * as a block first, then among the transactions and receipts of the last blocks (scan.ts). A `0x` address or
 * transaction hash opens its page on the local EVM chain (views/evm.ts), when there is one.
 */

import { isEvmAddress, isEvmHash, NoEvmChainError } from '../evm-rpc.js';
import type { Json } from '../json.js';
import { rpc } from '../rpc.js';
import { SCAN_BLOCKS, scanBack } from '../scan.js';
import { evmSettings } from '../settings.js';

const ACCOUNT_ID = /^(([a-z\d]+[-_])*[a-z\d]+\.)*([a-z\d]+[-_])*[a-z\d]+$/;
const HASH = /^[1-9A-HJ-NP-Za-km-z]{43,44}$/;

/** The route a query leads to, or an error saying what was looked for. */
export async function resolveSearch(input: string): Promise<string> {
  const q = input.trim();
  if (/^\d+$/.test(q)) return `/block/${q}`;
  if (isEvmAddress(q) || isEvmHash(q)) {
    if (!(await evmSettings())) throw new NoEvmChainError();
    return isEvmAddress(q) ? `/evm/address/${q}` : `/evm/tx/${q.toLowerCase()}`;
  }
  if (HASH.test(q)) {
    const block = await rpc('block', { block_id: q }).catch(() => undefined);
    if (block) return `/block/${q}`;
    const tx = await findTxOrReceipt(q);
    if (tx) return tx;
  }
  const id = q.toLowerCase();
  if (id.length >= 2 && id.length <= 64 && ACCOUNT_ID.test(id)) {
    const account = await rpc('query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: id,
    }).catch(() => undefined);
    if (account) return `/account/${id}`;
  }
  throw new Error(
    `nothing found for “${q}” (heights, block hashes, account ids, transaction or receipt hashes of the last ${SCAN_BLOCKS} blocks, and 0x EVM addresses and transaction hashes are searched)`,
  );
}

/** `/tx/HASH?sender=…` for a transaction, `/receipt/ID` for a receipt, among the last blocks. */
async function findTxOrReceipt(hash: string): Promise<string | undefined> {
  let route: string | undefined;
  await scanBack((block) => {
    for (const chunk of block.chunks) {
      const tx = chunk.transactions.find((t) => t.hash === hash);
      if (tx) route = `/tx/${hash}?sender=${encodeURIComponent(tx.signer_id)}`;
      else if (chunk.receipts.some((r) => r.receipt_id === hash)) route = `/receipt/${hash}`;
    }
    return route !== undefined;
  });
  if (route) return route;
  // A local receipt (signer = receiver) is in no chunk: ask the node.
  const receipt = await rpc('EXPERIMENTAL_receipt', { receipt_id: hash }).catch(() => undefined);
  return receipt ? `/receipt/${hash}` : undefined;
}

/** The transaction whose receipt tree holds the receipt: each recent transaction's tree is read. */
export async function transactionOfReceipt(
  receiptId: string,
): Promise<{ hash: string; sender: string } | undefined> {
  let found: { hash: string; sender: string } | undefined;
  await scanBack(async (block) => {
    for (const chunk of block.chunks) {
      for (const t of chunk.transactions) {
        const status = await rpc('EXPERIMENTAL_tx_status', {
          tx_hash: t.hash,
          sender_account_id: t.signer_id,
          wait_until: 'NONE',
        }).catch(() => undefined);
        if (status?.receipts_outcome?.some((o: Json) => o.id === receiptId)) {
          found = { hash: t.hash, sender: t.signer_id };
          return true;
        }
      }
    }
    return false;
  });
  return found;
}
