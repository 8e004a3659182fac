/**
 * The entry of a view worker thread (rpc/view-worker-pool.ts): runs `call_function` jobs (rpc/view-job.ts)
 * with its own runtime parameters and contract cache, built from the protocol version and chain id the
 * RPC's thread gives it, and posts back each answer. It keeps the copies of the contracts' data it is sent
 * (rpc/contract-data-replica.ts), one version per contract, until a job brings a newer one or the pool tells it
 * to drop one.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { ContractDataReplica } from './contract-data-replica.js';
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

const { protocolVersion, chainId, validatorStakes } = workerData as ViewWorkerData;
const params = runtimeParamsFrom(loadRuntimeConfig(protocolVersion), chainId);
const port = parentPort!;

/**
 * What the pool posts, in batches: a job (`ViewJobMessage`), an account at a block that jobs name (`target`), a
 * copy of a contract's data (`data`), the end of one (`drop`), or the end of the targets of the last head.
 */
export type ViewWorkerMessage =
  | ViewJobMessage
  | { target: ViewTargetFacts }
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

port.on('message', (messages: ViewWorkerMessage[]) => {
  const answers: ViewWorkerAnswers = [];
  for (const message of messages) {
    if (Array.isArray(message)) {
      const answer = run(message);
      answers.push(
        answer.id,
        ANSWER_KINDS.indexOf(answer.kind),
        answer.kind === 'answer' ? answer.rawJson : '',
      );
    } else if ('target' in message) targets.set(message.target.id, message.target);
    else if ('data' in message)
      replicas.set(message.accountId, new ContractDataReplica(message.version, message.data));
    else if ('drop' in message) replicas.delete(message.drop);
    else targets.clear();
  }
  if (answers.length > 0) port.postMessage(answers);
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
port.postMessage('ready');
