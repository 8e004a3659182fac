/**
 * The entry of a view worker thread (rpc/view-worker-pool.ts): runs `call_function` jobs (rpc/view-job.ts)
 * with its own runtime parameters and contract cache, built from the protocol version and chain id the
 * RPC's thread gives it, and posts back each answer.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
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

port.on('message', (job: ViewJob) => {
  let answer: ViewJobAnswer;
  try {
    answer = runViewJob(job, params, validatorStakes);
  } catch {
    // Whatever failed here fails the same way on the RPC's thread, which reports it as it always does.
    answer = { id: job.id, kind: 'needs-state' };
  }
  port.postMessage(answer);
});
port.postMessage('ready');
