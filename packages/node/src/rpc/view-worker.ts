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
import { runViewJob, type ViewJob, type ViewJobAnswer } from './view-job.js';

export interface ViewWorkerData {
  protocolVersion: number;
  chainId: string;
  /** The validators' stakes (the genesis set), for jobs that do not carry their own. */
  validatorStakes: ReadonlyMap<string, bigint>;
}

const { protocolVersion, chainId, validatorStakes } = workerData as ViewWorkerData;
const params = runtimeParamsFrom(loadRuntimeConfig(protocolVersion), chainId);
const port = parentPort!;

/** What the pool posts, in batches: a job, or the end of a contract's copy. Answers go back in batches too. */
export type ViewWorkerMessage = ViewJob | { drop: string };

const replicas = new Map<string, ContractDataReplica>();

port.on('message', (messages: ViewWorkerMessage[]) => {
  const answers: ViewJobAnswer[] = [];
  for (const message of messages) {
    if ('drop' in message) replicas.delete(message.drop);
    else answers.push(run(message));
  }
  if (answers.length > 0) port.postMessage(answers);
});

function run(job: ViewJob): ViewJobAnswer {
  try {
    if (job.data) replicas.set(job.accountId, new ContractDataReplica(job.dataVersion, job.data));
    return runViewJob(job, params, validatorStakes, replicas.get(job.accountId));
  } catch {
    // Whatever failed here fails the same way on the RPC's thread, which reports it as it always does.
    return { id: job.id, kind: 'needs-state' };
  }
}
port.postMessage('ready');
