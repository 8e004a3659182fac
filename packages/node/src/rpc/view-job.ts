/**
 * One `call_function` view as a self-contained job: everything the state viewer reads, shipped by value, so
 * that another thread (rpc/view-worker.ts) can run it with the same code as the RPC's own thread
 * (runtime/state-viewer/call-function.ts) and write the same answer text.
 *
 * The state a view reads is the contract's data at the block — the worker's copy of it
 * (rpc/contract-data-replica.ts), which the job names by version and carries only when the worker does not
 * hold that version yet (view-worker-pool.ts, contract-data-replicas.ts) — and the contract's code when the
 * worker may not have it prepared. Any other read — a global contract's code, the yield queue
 * (`promise_yield_resume` is allowed in views) — cannot be answered from the job: the run is abandoned and the
 * RPC's thread runs the view itself.
 */
import { latin1String } from '@shadebox/primitives';
import type { RuntimeParams } from '../runtime/runtime-context.js';
import { callFunction } from '../runtime/state-viewer/call-function.js';
import { type Account, decodeAccount } from '../state/account.js';
import { contractCodeKey, contractDataPrefix } from '../state/state-keys.js';
import { StateUpdate } from '../state/state-update.js';
import type { ContractDataReplica } from './contract-data-replica.js';
import { viewCallJson } from './methods/view-call.js';

/** An account at a block, as the jobs of one head share it: sent to a worker once (`{ target }`), then named by
 * `id` in each job. */
export interface ViewTargetFacts {
  id: number;
  accountId: string;
  /** The account record as stored (borsh). */
  accountBytes: Uint8Array;
  blockHash: string;
  height: number;
  blockTimestamp: bigint;
  epochHeight: bigint;
  randomSeed: Uint8Array;
  shardId: number;
  /** The validators' stakes, when they are not those the worker was started with. */
  validatorStakes?: ReadonlyMap<string, bigint>;
}

/**
 * One view as the pool posts it: a few primitives (a message of typed arrays, bigints and objects costs several
 * times more to copy between threads): the job's id, its target's id, the version of the worker's copy of the
 * contract's data that is its data at the block, the method, the arguments as latin1 text, and the code when the
 * worker was not sent it before (or asked for it).
 */
export type ViewJobMessage = [
  id: number,
  target: number,
  dataVersion: number,
  method: string,
  args: string,
  code?: Uint8Array,
];

/** A job with its target's facts, as the state viewer runs it. */
export interface ViewJob {
  id: number;
  target: ViewTargetFacts;
  code?: Uint8Array;
  method: string;
  args: Uint8Array;
  /** The version of the contract's data copy that is its data at the block. */
  dataVersion: number;
}

/** What a worker answers, per job. */
export type ViewJobAnswer =
  | { id: number; kind: 'answer'; rawJson: string }
  /** The worker does not hold the code (evicted from its cache): send the job again with it. */
  | { id: number; kind: 'needs-code' }
  /** The worker does not hold the job's version of the contract's data: send the job again with it. */
  | { id: number; kind: 'needs-data' }
  /** The view read state the job does not carry: run it on the RPC's thread. */
  | { id: number; kind: 'needs-state' };

export const ANSWER_KINDS = ['answer', 'needs-code', 'needs-data', 'needs-state'] as const;

/** The job of `message` with its target's facts. */
export function jobOf(message: ViewJobMessage, target: ViewTargetFacts): ViewJob {
  const [id, , dataVersion, method, args, code] = message;
  return { id, target, dataVersion, method, args: new Uint8Array(Buffer.from(args, 'latin1')), code };
}

/** The decoded account of each target (a target is one account at one block). */
const accounts = new WeakMap<ViewTargetFacts, Account>();

function accountOf(target: ViewTargetFacts): Account {
  let account = accounts.get(target);
  if (account === undefined) {
    account = decodeAccount(target.accountBytes);
    accounts.set(target, account);
  }
  return account;
}

/** The code key and data prefix (latin1) of the accounts views ran on lately. */
const keysOf = new Map<string, { codeKey: string; dataPrefix: string }>();

function accountKeys(accountId: string): { codeKey: string; dataPrefix: string } {
  let keys = keysOf.get(accountId);
  if (keys === undefined) {
    if (keysOf.size >= 1024) keysOf.clear();
    keys = {
      codeKey: latin1String(contractCodeKey(accountId)),
      dataPrefix: latin1String(contractDataPrefix(accountId)),
    };
    keysOf.set(accountId, keys);
  }
  return keys;
}

/** The state of a job: its contract's data and code; every other read is recorded as a miss. */
class JobState extends StateUpdate {
  missedCode = false;
  missedOther = false;
  private readonly codeKey: string;
  private readonly dataPrefix: string;

  constructor(
    private readonly job: ViewJob,
    private readonly data: ContractDataReplica,
  ) {
    super(undefined, -1);
    const keys = accountKeys(job.target.accountId);
    this.codeKey = keys.codeKey;
    this.dataPrefix = keys.dataPrefix;
  }

  override get(key: Uint8Array): Uint8Array | undefined {
    const k = latin1String(key);
    // A data key of the contract that is not in the copy is absent: the copy holds all of them.
    if (k.startsWith(this.dataPrefix)) return this.data.get(key.subarray(this.dataPrefix.length));
    if (k === this.codeKey) {
      if (this.job.code === undefined) this.missedCode = true;
      return this.job.code;
    }
    this.missedOther = true;
    return undefined;
  }

  /** Through `get` (StateUpdate's own `has` reads its base directly, and a job's state has none). */
  override has(key: Uint8Array): boolean {
    return this.get(key) !== undefined;
  }

  /** The contract's own data straight from the copy, without its state key; another account's is a miss. */
  override contractData(accountId: string, key: Uint8Array): Uint8Array | undefined {
    if (accountId !== this.job.target.accountId) return super.contractData(accountId, key);
    return this.data.get(key);
  }
}

/** Runs `job` with `params` (the worker's own, with its own contract cache) on `data`, the worker's copy of the
 * contract's data (`needs-data` when it is not the job's version). */
export function runViewJob(
  job: ViewJob,
  params: RuntimeParams,
  validatorStakes: ReadonlyMap<string, bigint>,
  data: ContractDataReplica | undefined,
): ViewJobAnswer {
  if (data?.version !== job.dataVersion) return { id: job.id, kind: 'needs-data' };
  const { target } = job;
  const state = new JobState(job, data);
  const out = callFunction(
    {
      state,
      params,
      blockHeight: BigInt(target.height),
      blockTimestamp: target.blockTimestamp,
      epochHeight: target.epochHeight,
      randomSeed: target.randomSeed,
      validatorStakes: target.validatorStakes ?? validatorStakes,
      shardId: target.shardId,
    },
    target.accountId,
    accountOf(target),
    job.method,
    job.args,
  );
  if (state.missedOther) return { id: job.id, kind: 'needs-state' };
  if (state.missedCode) return { id: job.id, kind: 'needs-code' };
  return {
    id: job.id,
    kind: 'answer',
    rawJson: viewCallJson(out, { hash: target.blockHash, height: target.height }),
  };
}
