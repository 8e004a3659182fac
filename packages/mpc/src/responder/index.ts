/** The MPC responder: finds the signer's pending sign requests and answers each with `respond`. */
export { PendingRequestsError } from './pending-requests.js';
export { RespondFailedError } from './respond-transaction.js';
export type { ResponderLogger } from './responder-logger.js';
export { latencySummary, type ResponderStats } from './responder-stats.js';
export {
  type PendingSignatureRequest,
  respondTo,
  UnanswerableRequestError,
} from './signature-request.js';
export { type ResponderOptions, type RunningResponder, startResponder } from './start-responder.js';
