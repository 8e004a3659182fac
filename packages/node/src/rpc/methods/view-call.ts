/**
 * `query` `call_function`: the runtime's state viewer runs the method (runtime/state-viewer/call-function.ts);
 * this reads the block's facts from the chain for it and writes its answer in the wire's shape. A failed call
 * is still an RPC success: `result.error` carries the viewer's message.
 */
import { base58Decode, sha256 } from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import type { BlockRecord } from '../../chain/records.js';
import { callFunction } from '../../runtime/state-viewer/call-function.js';
import { decodeAccount } from '../../state/account.js';

/** The last state root decoded: views at one head all use it. */
let lastRoot: { text: string; bytes: Uint8Array } = { text: '', bytes: new Uint8Array(32) };
function decodeStateRoot(text: string): Uint8Array {
  if (lastRoot.text !== text) lastRoot = { text, bytes: base58Decode(text) };
  return lastRoot.bytes;
}

export function viewCall(
  chain: Chain,
  block: BlockRecord,
  accountId: string,
  accountBytes: Uint8Array,
  method: string,
  args: Uint8Array,
): { result: number[]; logs: string[] } | { error: string; logs: string[] } {
  const stateRoot = block.chunkExtras[chain.shardOf(accountId)]?.stateRoot;
  const view = {
    state: chain.stateAt(block.height),
    params: chain.params,
    blockHeight: BigInt(block.height),
    blockTimestamp: BigInt(block.timestampNs),
    epochHeight: BigInt(chain.epochOf(block.height).epochHeight),
    randomSeed: stateRoot ? decodeStateRoot(stateRoot) : sha256(new Uint8Array(0)),
    validatorStakes: chain.validatorStakes(),
    shardId: chain.shardOf(accountId),
  };
  const out = callFunction(view, accountId, decodeAccount(accountBytes), method, args);
  if ('error' in out) return { error: out.error, logs: [] };
  return { result: Array.from(out.result), logs: out.logs };
}
