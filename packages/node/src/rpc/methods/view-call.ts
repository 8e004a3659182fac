/**
 * `query` `call_function`: the runtime's state viewer runs the method (runtime/state-viewer/call-function.ts);
 * this reads the block's facts from the chain for it and writes its answer in the wire's shape. A failed call
 * is still an RPC success: `result.error` carries the viewer's message.
 *
 * The answer is written as JSON text here, in nearcore's sorted key order (`block_hash`, `block_height`,
 * `error` or `logs`, `result`), the bytes as a list of numbers: the same text `stringifyJson` makes of the
 * object, without building a number per byte first.
 */
import { base58Decode, sha256 } from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import type { BlockRecord } from '../../chain/records.js';
import {
  type CallFunctionResult,
  callFunction,
  type ViewApplyState,
} from '../../runtime/state-viewer/call-function.js';
import { decodeAccount } from '../../state/account.js';

/** The facts of one block that every view at it shares. */
export interface ViewBlockFacts {
  hash: string;
  height: number;
  blockHeight: bigint;
  blockTimestamp: bigint;
  epochHeight: bigint;
  /** Per shard: the view's random seed (the shard's state root, or sha256 of nothing without one). */
  randomSeeds: Uint8Array[];
}

/** The facts of the last few blocks views ran at: views at one head all use the same one or two. */
const recentFacts = new Map<string, ViewBlockFacts>();
const RECENT_BLOCKS = 4;

export function viewBlockFacts(chain: Chain, block: BlockRecord): ViewBlockFacts {
  const known = recentFacts.get(block.hash);
  // The height is checked too: a block hash is only reused for the same block.
  if (known && known.height === block.height) return known;
  const randomSeeds: Uint8Array[] = [];
  for (let shard = 0; shard < chain.numShards; shard++) {
    const root = block.chunkExtras[shard]?.stateRoot;
    randomSeeds.push(root ? base58Decode(root) : sha256(new Uint8Array(0)));
  }
  const facts: ViewBlockFacts = {
    hash: block.hash,
    height: block.height,
    blockHeight: BigInt(block.height),
    blockTimestamp: BigInt(block.timestampNs),
    epochHeight: BigInt(chain.epochOf(block.height).epochHeight),
    randomSeeds,
  };
  recentFacts.set(block.hash, facts);
  if (recentFacts.size > RECENT_BLOCKS) recentFacts.delete(recentFacts.keys().next().value as string);
  return facts;
}

/** The state viewer's input for a view of `accountId` at the block of `facts`. */
export function viewApplyState(chain: Chain, facts: ViewBlockFacts, accountId: string): ViewApplyState {
  const shardId = chain.shardOf(accountId);
  return {
    state: chain.stateAt(facts.height),
    params: chain.params,
    blockHeight: facts.blockHeight,
    blockTimestamp: facts.blockTimestamp,
    epochHeight: facts.epochHeight,
    randomSeed: facts.randomSeeds[shardId] ?? sha256(new Uint8Array(0)),
    validatorStakes: chain.validatorStakes(),
    shardId,
  };
}

export function viewCall(
  chain: Chain,
  block: BlockRecord,
  accountId: string,
  accountBytes: Uint8Array,
  method: string,
  args: Uint8Array,
): CallFunctionView {
  const facts = viewBlockFacts(chain, block);
  const out = callFunction(
    viewApplyState(chain, facts, accountId),
    accountId,
    decodeAccount(accountBytes),
    method,
    args,
  );
  return new CallFunctionView(out, facts);
}

/**
 * The answer as an object, in nearcore's field order (`CallResult` or `QueryError`, then the block), for
 * in-process readers; the RPC writes `rawJson`, the same fields as text in sorted order.
 */
export class CallFunctionView {
  // Declared only: the constructor defines them, in that order (a class field would come first).
  declare readonly result?: number[];
  declare readonly error?: string;
  declare readonly logs: string[];
  declare readonly block_height: number;
  declare readonly block_hash: string;
  readonly #out: CallFunctionResult;

  constructor(out: CallFunctionResult, at: { hash: string; height: number }) {
    if ('error' in out) {
      this.error = out.error;
      this.logs = [];
    } else {
      this.result = Array.from(out.result);
      this.logs = out.logs;
    }
    this.block_height = at.height;
    this.block_hash = at.hash;
    this.#out = out;
  }

  get rawJson(): string {
    return viewCallJson(this.#out, { hash: this.block_hash, height: this.block_height });
  }
}

/** The `result` of a `call_function` answer, as JSON text. */
export function viewCallJson(out: CallFunctionResult, at: { hash: string; height: number }): string {
  const head = `{"block_hash":${JSON.stringify(at.hash)},"block_height":${at.height}`;
  if ('error' in out) return `${head},"error":${JSON.stringify(out.error)},"logs":[]}`;
  let logs = '';
  for (let i = 0; i < out.logs.length; i++) logs += (i > 0 ? ',' : '') + JSON.stringify(out.logs[i]);
  return `${head},"logs":[${logs}],"result":[${bytesJson(out.result)}]}`;
}

/** Reused by `bytesJson` for results up to 64 KiB (4 characters at most per byte); a larger one gets its own. */
const scratch = Buffer.allocUnsafe(4 * 65536);
const COMMA = 0x2c;
const ZERO = 0x30;

/** `1,2,3` for the bytes [1, 2, 3]: the digits are written as bytes and read as text once, where joining
 * strings would make a string per byte. */
function bytesJson(bytes: Uint8Array): string {
  const out = 4 * bytes.length <= scratch.length ? scratch : Buffer.allocUnsafe(4 * bytes.length);
  let at = 0;
  for (let i = 0; i < bytes.length; i++) {
    if (i > 0) out[at++] = COMMA;
    const b = bytes[i];
    if (b >= 100) out[at++] = ZERO + Math.floor(b / 100);
    if (b >= 10) out[at++] = ZERO + (Math.floor(b / 10) % 10);
    out[at++] = ZERO + (b % 10);
  }
  return out.toString('latin1', 0, at);
}
