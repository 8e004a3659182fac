/**
 * One `call_function` view as a self-contained job: everything the state viewer reads, shipped by value, so
 * that another thread (rpc/view-worker.ts) can run it with the same code as the RPC's own thread
 * (runtime/state-viewer/call-function.ts) and write the same answer text.
 *
 * The state a view reads is the contract's data at the block, shipped whole (the RPC only sends a job when it
 * is small: view-worker-pool.ts), and the contract's code when the worker may not have it prepared. Any other
 * read — a global contract's code, the yield queue (`promise_yield_resume` is allowed in views) — cannot be
 * answered from the job: the run is abandoned and the RPC's thread runs the view itself.
 */
import type { RuntimeParams } from '../runtime/runtime-context.js';
import { callFunction } from '../runtime/state-viewer/call-function.js';
import { decodeAccount } from '../state/account.js';
import { contractCodeKey, contractDataPrefix } from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import { viewCallJson } from './methods/view-call.js';

export interface ViewJob {
  id: number;
  accountId: string;
  /** The account record as stored (borsh). */
  accountBytes: Uint8Array;
  /** The code, when the worker was not sent it before (or asked for it). */
  code?: Uint8Array;
  method: string;
  args: Uint8Array;
  blockHash: string;
  height: number;
  blockTimestamp: bigint;
  epochHeight: bigint;
  randomSeed: Uint8Array;
  shardId: number;
  /** The validators' stakes, when they are not those the worker was started with. */
  validatorStakes?: ReadonlyMap<string, bigint>;
  /** Every contract data entry of the account at the block: full state keys and values. */
  data: Array<[Uint8Array, Uint8Array]>;
}

export type ViewJobAnswer =
  | { id: number; kind: 'answer'; rawJson: string }
  /** The worker does not hold the code (evicted from its cache): send the job again with it. */
  | { id: number; kind: 'needs-code' }
  /** The view read state the job does not carry: run it on the RPC's thread. */
  | { id: number; kind: 'needs-state' };

const latin1 = (bytes: Uint8Array) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');

/** The state of a job: its contract's data and code; every other read is recorded as a miss. */
class JobState extends StateUpdate {
  missedCode = false;
  missedOther = false;
  private readonly entries: Map<string, Uint8Array>;
  private readonly codeKey: string;
  private readonly dataPrefix: string;

  constructor(private readonly job: ViewJob) {
    super(undefined, -1);
    this.entries = new Map(job.data.map(([k, v]) => [latin1(k), v]));
    this.codeKey = latin1(contractCodeKey(job.accountId));
    this.dataPrefix = latin1(contractDataPrefix(job.accountId));
  }

  override get(key: Uint8Array): Uint8Array | undefined {
    const k = latin1(key);
    const value = this.entries.get(k);
    if (value !== undefined) return value;
    if (k === this.codeKey) {
      if (this.job.code === undefined) this.missedCode = true;
      return this.job.code;
    }
    // A data key of the contract that is not in the job is absent: the job holds all of them.
    if (!k.startsWith(this.dataPrefix)) this.missedOther = true;
    return undefined;
  }
}

/** Runs `job` with `params` (the worker's own, with its own contract cache). */
export function runViewJob(
  job: ViewJob,
  params: RuntimeParams,
  validatorStakes: ReadonlyMap<string, bigint>,
): ViewJobAnswer {
  const state = new JobState(job);
  const out = callFunction(
    {
      state,
      params,
      blockHeight: BigInt(job.height),
      blockTimestamp: job.blockTimestamp,
      epochHeight: job.epochHeight,
      randomSeed: job.randomSeed,
      validatorStakes: job.validatorStakes ?? validatorStakes,
      shardId: job.shardId,
    },
    job.accountId,
    decodeAccount(job.accountBytes),
    job.method,
    job.args,
  );
  if (state.missedOther) return { id: job.id, kind: 'needs-state' };
  if (state.missedCode) return { id: job.id, kind: 'needs-code' };
  return {
    id: job.id,
    kind: 'answer',
    rawJson: viewCallJson(out, { hash: job.blockHash, height: job.height }),
  };
}
