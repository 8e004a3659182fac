/**
 * `call_function` views on worker threads, so that views use the cores the RPC's thread leaves idle. The
 * RPC's thread parses the request, resolves the block and reads the account; a worker runs the contract
 * (rpc/view-worker.ts) and writes the answer's text, which is the text the RPC's thread would have written
 * (rpc/view-job.ts runs the same state viewer; the tests compare both paths). Once it has done so for an
 * account at a finality, the worker is given that route, and the next such requests of the same head go to
 * the worker as their bodies (`runBody`, rpc/view-body-job.ts): the RPC's thread then only reads the HTTP
 * request and writes the answer.
 *
 * A job carries the block's facts and the account by value, the code the first time a worker runs it, and the
 * version of the worker's copy of the contract's data (rpc/contract-data-replicas.ts): the copy is sent once
 * and reused by every view at a block where it is still the contract's data, so a contract with a large state
 * runs on a worker too. A view the worker cannot run alone (a global contract, state outside the contract's
 * data, a contract with more data than the copies' budget, a block the copy does not hold for) runs on the
 * RPC's thread, as does every view while the workers start, when they are all busy, and after one fails.
 * Workers start on the first view, not with the node, so a node that serves no views pays nothing.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';
import { latin1String } from '@shadebox/primitives';
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import { decodeAccount } from '../state/account.js';
import { contractCodeKey } from '../state/state-keys.js';
import { spinFromEnv } from './batch-spin.js';
import {
  ContractDataReplicas,
  DEFAULT_REPLICA_BUDGET_BYTES,
  type TrackedReplica,
} from './contract-data-replicas.js';
import { InFlightSlots } from './in-flight-slots.js';
import type { HttpAnswer } from './jsonrpc.js';
import { viewBlockFacts, viewCall } from './methods/view-call.js';
import { routeKey } from './view-body-job.js';
import { ANSWER_KINDS, type ViewJobAnswer, type ViewJobMessage, type ViewTargetFacts } from './view-job.js';
import type { ViewWorkerAnswers, ViewWorkerData, ViewWorkerMessage, ViewWorkerStart } from './view-worker.js';

/** Jobs a worker may have queued before new views run on the RPC's thread instead. */
const MAX_IN_FLIGHT = 64;
/** Code hashes remembered as sent to a worker (its contract cache holds 256; a miss is asked for again). */
const MAX_SENT_CODES = 256;
/** Targets (account at a block) kept for the current head. */
const MAX_TARGETS = 1024;
/** Workers that failed before the pool gives up and runs every view on the RPC's thread. */
const MAX_FAILURES = 3;

/** The default size: one worker per core beside the RPC's thread (at most 4); `SHADEBOX_VIEW_WORKERS` sets it. */
export function defaultViewWorkers(): number {
  const set = process.env.SHADEBOX_VIEW_WORKERS;
  if (set !== undefined && /^\d+$/.test(set)) return Number(set);
  return Math.min(4, Math.max(0, availableParallelism() - 1));
}

type RawAnswer = { rawJson: string };

type Pending = PendingJob | PendingBody;

/** A view the RPC's thread read and sent as a job. */
interface PendingJob {
  kind: 'job';
  job: ViewJobMessage;
  accountId: string;
  codeHash: string;
  resolve: (answer: RawAnswer) => void;
  reject: (error: unknown) => void;
  /** The same view on the RPC's thread. */
  inThread: () => RawAnswer;
  /** The contract's code, for a resend when the worker asks for it. */
  loadCode: () => Uint8Array | undefined;
  /** The job's copy of the contract's data, for a resend when the worker asks for it. */
  replica: TrackedReplica;
}

/** A request body sent whole (rpc/view-body-job.ts). */
interface PendingBody {
  kind: 'body';
  resolve: (answer: HttpAnswer | Promise<HttpAnswer>) => void;
  reject: (error: unknown) => void;
  /** The request answered on the RPC's thread. */
  inThread: () => HttpAnswer | Promise<HttpAnswer>;
}

/** An account at a block, as its jobs name it. */
interface ViewTarget {
  /** What a worker is sent once, before the first job that names `facts.id`. */
  facts: ViewTargetFacts;
  /** The code hash as latin1 text. */
  codeHash: string;
}

interface PoolWorker {
  worker: Worker;
  ready: boolean;
  /** Its views not answered yet, by the id their messages carry (in-flight-slots.ts: not a Map). */
  inFlight: InFlightSlots<Pending>;
  /** Code hashes (latin1) this worker was sent, oldest first. */
  codes: Set<string>;
  /** The version of each contract's data copy this worker was sent. */
  data: Map<string, number>;
  /** The targets this worker was sent (all of the current head's). */
  targets: Set<number>;
  /** The routes this worker was sent at the current head: key → `target:dataVersion`. */
  routes: Map<string, string>;
  /** Messages not posted yet: all those of one turn of the event loop go in one message. */
  outbox: ViewWorkerMessage[];
  /** posted[0]: the messages posted to it, which it watches while it waits awake (rpc/batch-spin.ts). */
  posted: Int32Array;
}

/** The bytes in an ArrayBuffer of their own: a message copies a view's whole buffer (Node's small Buffers are
 * views into one shared 8 KiB pool). */
const compact = (bytes: Uint8Array) =>
  bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength ? bytes : bytes.slice();

export class ViewWorkerPool {
  private readonly workers: PoolWorker[] = [];
  private started = false;
  private closed = false;
  private failures = 0;
  private nextTargetId = 1;
  /** Views' targets by block hash and account, for the current head (null: a job cannot carry it). */
  private readonly targets = new Map<string, ViewTarget | null>();
  private targetsHead = '';
  /** The chains views ran on (a node's regular and archival chains share a pool), numbered for routes. */
  private readonly chainNumbers = new WeakMap<Chain, number>();
  private nextChainNumber = 1;
  /** The contracts' data the workers hold. */
  readonly replicas: ContractDataReplicas;
  private readonly spinMs: number;
  /** Views answered by a worker, and views a worker handed back to the RPC's thread. */
  readonly stats = { byWorker: 0, handedBack: 0 };

  constructor(
    readonly size: number,
    private readonly init: ViewWorkerData,
    private readonly onError: (error: unknown) => void = () => {},
    /** `replicaBudgetBytes`: the packed bytes of contract data the workers may hold (each worker its copy);
     * `spinMs`: how long a busy worker waits awake for its next batch (rpc/batch-spin.ts). */
    options: { replicaBudgetBytes?: number; spinMs?: number } = {},
  ) {
    this.spinMs = options.spinMs ?? spinFromEnv();
    this.replicas = new ContractDataReplicas(
      options.replicaBudgetBytes ?? DEFAULT_REPLICA_BUDGET_BYTES,
      (accountId) => this.dropData(accountId),
    );
  }

  /** Workers started and ready. */
  get readyWorkers(): number {
    return this.workers.filter((w) => w.ready).length;
  }

  /** Starts the workers now rather than on the first view; resolves once `count` of them are ready. */
  async warmUp(count = this.size): Promise<void> {
    if (!this.started) this.start();
    while (!this.closed && this.readyWorkers < count && this.workers.length >= count)
      await new Promise((resolve) => setTimeout(resolve, 20));
  }

  /**
   * Runs the view on a worker: its answer, or undefined when the RPC's thread should run it now (no worker
   * ready or free, or a view a worker cannot run alone). `finality`: the request named its block by this
   * finality, so the worker is given the route (finality and account to this target) and answers the next
   * such request of this head from its body (`runBody`).
   */
  run(
    chain: Chain,
    block: BlockRecord,
    accountId: string,
    accountBytes: Uint8Array,
    method: string,
    args: Uint8Array,
    finality?: string,
  ): Promise<RawAnswer> | undefined {
    if (this.closed || this.size === 0) return undefined;
    if (!this.started) this.start();
    const target = this.pick();
    if (!target) return undefined;
    const view = this.targetOf(chain, block, accountId, accountBytes);
    if (!view) return undefined;
    const replica = this.replicas.at(chain, block, accountId);
    if (!replica) return undefined;
    const { facts, codeHash } = view;
    const job: ViewJobMessage = [
      -1, // the id: the slot it gets in `target.inFlight` below
      facts.id,
      replica.version,
      method,
      latin1String(args),
    ];
    if (!target.codes.has(codeHash)) {
      const code = chain.stateValue(contractCodeKey(accountId), block.height);
      if (!code) return undefined;
      job[5] = compact(code);
    }
    const inThread = () => viewCall(chain, block, accountId, accountBytes, method, args);
    const loadCode = () => chain.stateValue(contractCodeKey(accountId), block.height);
    if (!target.targets.has(facts.id)) {
      this.post(target, { target: facts });
      target.targets.add(facts.id);
    }
    if (target.data.get(accountId) !== replica.version) this.sendData(target, replica);
    if (finality !== undefined) {
      const key = routeKey(this.chainNumber(chain), finality, accountId);
      const to = `${facts.id}:${replica.version}`;
      if (target.routes.get(key) !== to) {
        this.post(target, { route: key, to: { target: facts.id, dataVersion: replica.version } });
        target.routes.set(key, to);
      }
    }
    return new Promise<RawAnswer>((resolve, reject) => {
      job[0] = target.inFlight.add({
        kind: 'job',
        job,
        accountId,
        codeHash,
        resolve,
        reject,
        inThread,
        loadCode,
        replica,
      });
      if (job[5]) this.remember(target, codeHash);
      this.post(target, job);
      // Sent: the worker keeps the code; a resend adds it again if the worker asks.
      job.length = 5;
    });
  }

  /**
   * Sends a request body whole to a worker that has routes at the current head (rpc/view-body-job.ts): its
   * answer, which is `inThread()`'s when the worker hands the request back; undefined when no worker can take
   * it (the RPC's thread then answers it itself).
   */
  runBody(
    chain: Chain,
    body: string,
    inThread: () => HttpAnswer | Promise<HttpAnswer>,
  ): Promise<HttpAnswer> | undefined {
    if (this.closed || !this.started || chain.head.hash !== this.targetsHead) return undefined;
    const chainNumber = this.chainNumbers.get(chain);
    if (chainNumber === undefined) return undefined;
    let best: PoolWorker | undefined;
    for (const w of this.workers) {
      if (!w.ready || w.routes.size === 0 || w.inFlight.size >= MAX_IN_FLIGHT) continue;
      if (!best || w.inFlight.size < best.inFlight.size) best = w;
    }
    if (!best) return undefined;
    const worker = best;
    return new Promise<HttpAnswer>((resolve, reject) => {
      const id = worker.inFlight.add({ kind: 'body', resolve, reject, inThread });
      this.post(worker, [id, chainNumber, body]);
    });
  }

  /** Ends the workers; views they had not answered run on the RPC's thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    const workers = this.workers.splice(0);
    for (const w of workers) this.settleInThread(w);
    this.replicas.clear();
    await Promise.all(workers.map((w) => w.worker.terminate()));
  }

  private start(): void {
    this.started = true;
    for (let i = 0; i < this.size; i++) this.spawn();
  }

  private spawn(): void {
    let worker: Worker;
    const posted = new SharedArrayBuffer(4);
    try {
      const entry = workerEntry();
      if (!entry) {
        // No worker module here (a bundle without it): every view runs on the RPC's thread.
        this.failures = MAX_FAILURES;
        return;
      }
      const workerData: ViewWorkerStart = { ...this.init, posted, spinMs: this.spinMs };
      worker = new Worker(entry.script, { ...entry.options, workerData });
    } catch (error) {
      this.fail(error);
      return;
    }
    // The workers never keep the process alive: the node's stop ends them, and so does its exit.
    worker.unref();
    const entry: PoolWorker = {
      worker,
      ready: false,
      inFlight: new InFlightSlots(MAX_IN_FLIGHT),
      codes: new Set(),
      data: new Map(),
      targets: new Set(),
      routes: new Map(),
      outbox: [],
      posted: new Int32Array(posted),
    };
    this.workers.push(entry);
    worker.on('message', (message: ViewWorkerAnswers | 'ready') => {
      if (message === 'ready') {
        entry.ready = true;
        return;
      }
      for (let i = 0; i < message.length; i += 3) {
        const id = message[i] as number;
        const kind = ANSWER_KINDS[message[i + 1] as number];
        this.settle(
          entry,
          kind === 'answer' ? { id, kind, rawJson: message[i + 2] as string } : { id, kind },
        );
      }
    });
    const gone = (error?: unknown) => {
      const at = this.workers.indexOf(entry);
      if (at < 0) return;
      this.workers.splice(at, 1);
      this.settleInThread(entry);
      if (this.closed) return;
      this.fail(error ?? new Error('view worker exited'));
      if (this.failures < MAX_FAILURES) this.spawn();
    };
    worker.on('error', gone);
    worker.on('exit', () => gone());
  }

  private fail(error: unknown): void {
    this.failures++;
    this.onError(error);
  }

  /** The ready worker with the fewest views queued, unless all have MAX_IN_FLIGHT. */
  private pick(): PoolWorker | undefined {
    let best: PoolWorker | undefined;
    for (const w of this.workers) {
      if (!w.ready || w.inFlight.size >= MAX_IN_FLIGHT) continue;
      if (!best || w.inFlight.size < best.inFlight.size) best = w;
    }
    return best;
  }

  private settle(entry: PoolWorker, answer: ViewJobAnswer): void {
    const pending = entry.inFlight.get(answer.id);
    if (!pending) return;
    if (pending.kind === 'body') {
      entry.inFlight.take(answer.id);
      if (answer.kind !== 'answer') this.runInThread(pending);
      else {
        this.stats.byWorker++;
        pending.resolve({ status: 200, contentType: 'application/json', body: answer.rawJson });
      }
      return;
    }
    if (answer.kind === 'needs-code') {
      // Evicted from the worker's cache: send the job again with the code.
      entry.codes.delete(pending.codeHash);
      const code = pending.loadCode();
      if (code && pending.job.length === 5) {
        pending.job[5] = compact(code);
        this.remember(entry, pending.codeHash);
        this.post(entry, pending.job);
        return;
      }
    }
    if (answer.kind === 'needs-data' && this.replicas.holds(pending.replica)) {
      // The worker's copy is another version (a resend, a replaced copy): send the job's, then the job again.
      this.sendData(entry, pending.replica);
      this.post(entry, pending.job);
      return;
    }
    entry.inFlight.take(answer.id);
    if (answer.kind === 'answer') {
      this.stats.byWorker++;
      pending.resolve({ rawJson: answer.rawJson });
    } else this.runInThread(pending);
  }

  private settleInThread(entry: PoolWorker): void {
    const pending = entry.inFlight.takeAll();
    for (const p of pending) this.runInThread(p);
  }

  private runInThread(pending: Pending): void {
    this.stats.handedBack++;
    try {
      if (pending.kind === 'body') pending.resolve(pending.inThread());
      else pending.resolve(pending.inThread());
    } catch (error) {
      pending.reject(error);
    }
  }

  private chainNumber(chain: Chain): number {
    let number = this.chainNumbers.get(chain);
    if (number === undefined) {
      number = this.nextChainNumber++;
      this.chainNumbers.set(chain, number);
    }
    return number;
  }

  /**
   * Queues `message` for the worker; the queue goes out as one message once this turn's I/O is handled
   * (setImmediate), so the views read from many sockets at once cost one post and one answer message. A job's
   * data copy is taken into the queued message and dropped from the job (the worker keeps it).
   */
  private post(entry: PoolWorker, message: ViewWorkerMessage): void {
    // A job is queued as it is now (its code is dropped from it once queued).
    entry.outbox.push(Array.isArray(message) ? (message.slice() as ViewJobMessage) : message);
    if (entry.outbox.length === 1) setImmediate(() => this.flush(entry));
  }

  private sendData(entry: PoolWorker, replica: TrackedReplica): void {
    this.post(entry, { data: replica.packed, accountId: replica.accountId, version: replica.version });
    entry.data.set(replica.accountId, replica.version);
  }

  private flush(entry: PoolWorker): void {
    const messages = entry.outbox;
    entry.outbox = [];
    // A worker that died or a closed pool: its pending views already ran on the RPC's thread.
    if (messages.length === 0 || !this.workers.includes(entry)) return;
    entry.worker.postMessage(messages);
    // Counted after the post: a worker that handles the message first sees the counter behind its own count for a
    // moment and does not wait after that batch; it never waits for a message that was not posted.
    Atomics.add(entry.posted, 0, 1);
  }

  /** Tells the workers that hold a copy of `accountId`'s data to drop it. */
  private dropData(accountId: string): void {
    for (const w of this.workers) {
      if (!w.data.delete(accountId)) continue;
      this.post(w, { drop: accountId });
    }
  }

  private remember(entry: PoolWorker, codeHash: string): void {
    entry.codes.delete(codeHash);
    entry.codes.add(codeHash);
    if (entry.codes.size > MAX_SENT_CODES) entry.codes.delete(entry.codes.values().next().value as string);
  }

  /**
   * What every job for this account at this block carries (kept until the head moves), or undefined when a
   * job cannot carry it: a global contract (its code is read from its shard's state), or no code.
   */
  private targetOf(
    chain: Chain,
    block: BlockRecord,
    accountId: string,
    accountBytes: Uint8Array,
  ): ViewTarget | undefined {
    const head = chain.head.hash;
    if (head !== this.targetsHead) {
      this.forgetTargets();
      this.targetsHead = head;
    }
    const key = `${block.hash}\u0000${accountId}`;
    const known = this.targets.get(key);
    if (known !== undefined) return known ?? undefined;
    const target = this.makeTarget(chain, block, accountId, accountBytes);
    if (this.targets.size >= MAX_TARGETS) this.forgetTargets();
    this.targets.set(key, target);
    return target ?? undefined;
  }

  /** Forgets the targets, here and in the workers. */
  private forgetTargets(): void {
    this.targets.clear();
    for (const w of this.workers) {
      if (w.targets.size === 0) continue;
      w.targets.clear();
      w.routes.clear();
      this.post(w, { forgetTargets: true });
    }
  }

  private makeTarget(
    chain: Chain,
    block: BlockRecord,
    accountId: string,
    accountBytes: Uint8Array,
  ): ViewTarget | null {
    const account = decodeAccount(accountBytes);
    if (account.globalContract || account.codeHash.every((b) => b === 0)) return null;
    const facts = viewBlockFacts(chain, block);
    const shardId = chain.shardOf(accountId);
    const stakes = chain.validatorStakes();
    return {
      facts: {
        id: this.nextTargetId++,
        accountId,
        accountBytes: compact(accountBytes),
        blockHash: facts.hash,
        height: facts.height,
        blockTimestamp: facts.blockTimestamp,
        epochHeight: facts.epochHeight,
        randomSeed: facts.randomSeeds[shardId],
        shardId,
        ...(stakes !== this.init.validatorStakes ? { validatorStakes: stakes } : {}),
      },
      codeHash: latin1String(account.codeHash),
    };
  }
}

/**
 * The worker's module, `@shadebox/node/view-worker`: the built file, or the TypeScript source when the node
 * runs from sources, loaded through tsx, which the worker registers first. Resolved through the package, so
 * a bundle of the node finds it in the installed package; undefined when it is not there.
 */
function workerEntry(): { script: URL | string; options: WorkerOptions } | undefined {
  let url: URL;
  try {
    url = new URL(import.meta.resolve('@shadebox/node/view-worker'));
  } catch {
    url = new URL(import.meta.url.endsWith('.ts') ? './view-worker.ts' : './view-worker.js', import.meta.url);
  }
  if (url.protocol !== 'file:' || !existsSync(fileURLToPath(url))) return undefined;
  if (!url.pathname.endsWith('.ts')) return { script: url, options: {} };
  let tsx: string;
  try {
    tsx = import.meta.resolve('tsx/esm/api');
  } catch {
    return undefined;
  }
  // `load` stands for `import`: the CLI's bundle check (packages/cli/scripts/bundle-cli.mjs) refuses any text that
  // reads as a dynamic import, and this source only ever runs in a worker of an unbundled node.
  const load = 'import';
  const script = `${load}(${JSON.stringify(tsx)}).then(({ register }) => { register(); return ${load}(${JSON.stringify(url.href)}); });`;
  return { script, options: { eval: true, execArgv: ['--conditions=source'] } };
}
