/**
 * The entry of a view worker thread (rpc/view-worker-pool.ts): runs `call_function` jobs (rpc/view-job.ts)
 * with its own runtime parameters and contract cache, built from the protocol version and chain id the
 * RPC's thread gives it, and posts back each answer. It keeps the copies of the contracts' data it is sent
 * (rpc/contract-data-replica.ts), one version per contract, until a job brings a newer one or the pool tells it
 * to drop one. It also answers whole `call_function` request bodies (rpc/view-body-job.ts) through the routes
 * the pool gives it for the current head, with its own read cache of those answers. Its heap is trimmed as the
 * node's is (chain/heap-trim.ts), on its batches of jobs. With `SHADEBOX_VIEW_SPIN_US` set, while it is busy it
 * waits for its next batch awake (rpc/batch-spin.ts).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { HeapTrim } from '../chain/heap-trim.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { contractDataPrefix } from '../state/state-keys.js';
import { BatchSpin } from './batch-spin.js';
import { ContractDataReplica } from './contract-data-replica.js';
import { ReadCache } from './read-cache.js';
import { type BodyView, bodyAnswer, bodyView, type ViewRoute } from './view-body-job.js';
import {
  ANSWER_KINDS,
  jobOf,
  runViewJob,
  type ViewJobAnswer,
  type ViewJobMessage,
  type ViewTargetFacts,
} from './view-job.js';

export interface ViewWorkerData {
  protocolVersion: number;
  chainId: string;
  /** The validators' stakes (the genesis set), for jobs that do not carry their own. */
  validatorStakes: ReadonlyMap<string, bigint>;
}

/** What the pool adds for each worker: the counter of messages it posted to it, and how long the worker waits
 * awake for the next (rpc/batch-spin.ts). */
export interface ViewWorkerStart extends ViewWorkerData {
  posted: SharedArrayBuffer;
  spinMs: number;
}

const { protocolVersion, chainId, validatorStakes, posted, spinMs } = workerData as ViewWorkerStart;
const spin = new BatchSpin(new Int32Array(posted), spinMs);
const params = runtimeParamsFrom(loadRuntimeConfig(protocolVersion), chainId);
const port = parentPort!;

/** A whole request body to answer (rpc/view-body-job.ts): the job's id, the chain's number, the body. */
export type ViewBodyMessage = [id: number, chain: number, body: string];

/**
 * What the pool posts, in batches: a job (`ViewJobMessage`), a request body (`ViewBodyMessage`), an account at a
 * block that jobs name (`target`), the target of a finality and account at the current head (`route`), a copy of
 * a contract's data (`data`), the end of one (`drop`), or the end of the targets and routes of the last head.
 */
export type ViewWorkerMessage =
  | ViewJobMessage
  | ViewBodyMessage
  | { target: ViewTargetFacts }
  | { route: string; to: ViewRoute }
  | { data: Uint8Array; accountId: string; version: number }
  | { drop: string }
  | { forgetTargets: true };

/**
 * The answers of a batch, flat: for each job its id, its kind (an index in `ANSWER_KINDS`) and the answer's text
 * (empty unless the kind is `answer`).
 */
export type ViewWorkerAnswers = Array<number | string>;

const replicas = new Map<string, ContractDataReplica>();
const targets = new Map<number, ViewTargetFacts>();
const routes = new Map<string, ViewRoute>();
/** Answers of bodies at the current head (its routes), by the request's cache key; only repeated requests'
 * answers are kept (a stream of distinct views leaves nothing for the full collections). */
const answers = new ReadCache({ admitOnRepeat: true });
let head = 0;

/**
 * The worker's live heap is a few MiB (the contracts' data copies are outside it), so its trim runs at a
 * quarter of the node's headroom; V8 alone let it grow to twice what was live over ten minutes of a soak. At
 * most one collection per 10 s (and per the trim's `busyGapMs`, 15 s, while jobs keep coming): at 15,000 views
 * a second 4 MiB go in a fraction of a second, and collecting at that pace cost the benchmark's views about a
 * tenth of their rate.
 */
const WORKER_HEAP_HEADROOM_BYTES = 4 * 1024 * 1024;
const WORKER_IDLE_GROWTH_BYTES = 2 * 1024 * 1024;
const WORKER_MIN_COLLECTION_GAP_MS = 10_000;
let onBatch: (() => void) | undefined;
new HeapTrim(
  (onActivity) => {
    onBatch = onActivity;
    return () => {
      onBatch = undefined;
    };
  },
  {
    headroomBytes: WORKER_HEAP_HEADROOM_BYTES,
    idleGrowthBytes: WORKER_IDLE_GROWTH_BYTES,
    minGapMs: WORKER_MIN_COLLECTION_GAP_MS,
  },
).start();

/** Answers posted back after the first job of a batch, then after 2, 4, … more, at most this many at once. */
const MAX_ANSWERS_PER_POST = 16;

port.on('message', (messages: ViewWorkerMessage[]) => {
  spin.batchBegins();
  onBatch?.();
  let answers: ViewWorkerAnswers = [];
  // A batch's answers go back in growing groups rather than all at its end: the RPC's thread writes the
  // first answers (and reads the requests they make room for) while this thread runs the rest, instead of
  // waiting idle for the whole batch.
  let postAt = 1;
  for (const message of messages) {
    if (Array.isArray(message)) {
      const answer = message.length === 3 ? runBody(message) : run(message as ViewJobMessage);
      answers.push(
        answer.id,
        ANSWER_KINDS.indexOf(answer.kind),
        answer.kind === 'answer' ? answer.rawJson : '',
      );
      if (answers.length >= 3 * postAt) {
        port.postMessage(answers);
        answers = [];
        postAt = Math.min(2 * postAt, MAX_ANSWERS_PER_POST);
      }
    } else if ('target' in message) targets.set(message.target.id, message.target);
    else if ('route' in message) routes.set(message.route, message.to);
    else if ('data' in message)
      replicas.set(
        message.accountId,
        new ContractDataReplica(message.version, message.data, contractDataPrefix(message.accountId).length),
      );
    else if ('drop' in message) replicas.delete(message.drop);
    else {
      targets.clear();
      routes.clear();
      head++;
    }
  }
  if (answers.length > 0) port.postMessage(answers);
  spin.batchEnds();
});

function run(message: ViewJobMessage): ViewJobAnswer {
  const target = targets.get(message[1]);
  // The pool sends a job's target before the job: a missing one is the pool's mistake, answered in its thread.
  if (!target) return { id: message[0], kind: 'needs-state' };
  const job = jobOf(message, target);
  try {
    return runViewJob(job, params, validatorStakes, replicas.get(target.accountId));
  } catch {
    // Whatever failed here fails the same way on the RPC's thread, which reports it as it always does.
    return { id: job.id, kind: 'needs-state' };
  }
}
function runBody([id, chain, body]: ViewBodyMessage): ViewJobAnswer {
  let view: BodyView | undefined;
  try {
    view = bodyView(body, chain, routes);
  } catch {
    view = undefined;
  }
  const handBack: ViewJobAnswer = { id, kind: 'needs-state' };
  if (view === undefined) return handBack;
  const cached = answers.get(view.cacheKey, String(head));
  if (cached) return bodyAnswer(id, view, cached.payload);
  const target = targets.get(view.route.target);
  if (!target) return handBack;
  const job = { id, target, dataVersion: view.route.dataVersion, method: view.method, args: view.args };
  let answer: ViewJobAnswer;
  try {
    answer = runViewJob(job, params, validatorStakes, replicas.get(target.accountId));
  } catch {
    return handBack;
  }
  if (answer.kind !== 'answer') return handBack;
  answers.set(view.cacheKey, String(head), { status: 200, key: 'result', payload: answer.rawJson });
  return bodyAnswer(id, view, answer.rawJson);
}

port.postMessage('ready');
