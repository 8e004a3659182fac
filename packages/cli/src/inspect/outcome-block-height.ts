/** The height of the block that included a transaction, looked up by its hash (undefined if unknown). */
import { block, type RpcClient } from '@shadebox/near-client';
import type { FinalOutcomeView } from './format-outcome.js';

export async function outcomeBlockHeight(
  rpc: RpcClient,
  view: FinalOutcomeView,
): Promise<number | undefined> {
  const hash = view.transaction_outcome?.block_hash;
  if (hash === undefined) return undefined;
  return block(rpc, { blockId: hash }).then(
    (b) => b.header.height,
    () => undefined,
  );
}
