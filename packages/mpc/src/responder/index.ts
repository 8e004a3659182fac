/** The MPC responder: finds sign requests in the chain's receipts and answers each with `respond`. */
export { readSavedHeight } from './receipt-finder.js';
export { RespondFailedError } from './respond-transaction.js';
export type { ResponderLogger } from './responder-logger.js';
export { latencySummary, type ResponderStats } from './responder-stats.js';
export { signCallRequest } from './sign-call.js';
export {
  type PendingSignatureRequest,
  respondTo,
  UnanswerableRequestError,
} from './signature-request.js';
export {
  contractRequest,
  detectSignerFlavor,
  isPending,
  respondArgs,
  SIGNER_FLAVORS,
  type SignerFlavor,
  UnknownSignerError,
} from './signer-flavor.js';
export { type ResponderOptions, type RunningResponder, startResponder } from './start-responder.js';
