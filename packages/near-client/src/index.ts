export { type BlockView, block } from './block.js';
export { type BlockReference, blockParams, type Finality } from './block-reference.js';
export { type ChainUnavailableDetails, ChainUnavailableError } from './chain-unavailable-error.js';
export { ContractError, type ContractErrorDetails, contractErrorFromText } from './contract-error.js';
export { decodeResult } from './decode-result.js';
export {
  ExpiredTransactionError,
  InvalidNonceError,
  InvalidTransactionError,
  type InvalidTxErrorJson,
  invalidTxErrorOf,
  rpcErrorOf,
} from './invalid-transaction.js';
export {
  KeyPool,
  type KeyPoolOptions,
  type ResendInfo,
  type SendOptions,
  type SignedTx,
} from './key-pool.js';
export { type Outcome, outcomeResult } from './outcome-result.js';
export { QueryResultError, type QueryResultErrorDetails } from './query-result-error.js';
export { parseRetryAfter } from './retry-after.js';
export { type CallOptions, type RetryOptions, RpcClient, type RpcClientOptions } from './rpc-client.js';
export { type NearRpcErrorObject, RpcError, type RpcErrorDetails } from './rpc-error.js';
export {
  broadcastTxAsync,
  sendTransaction,
  signedTxBase64,
  TX_EXECUTION_LEVELS,
  type TxExecutionLevel,
} from './send-transaction.js';
export { type NodeStatus, status } from './status.js';
export {
  type FollowUpOptions,
  type FollowUpResult,
  followTransaction,
  levelReached,
  TransactionDroppedError,
  TransactionFateUnknownError,
} from './transaction-follow-up.js';
export { type TxStatusRequest, txStatus } from './tx-status.js';
export {
  type AccessKeyInfo,
  type AccessKeyListEntry,
  viewAccessKey,
  viewAccessKeyList,
} from './view-access-key.js';
export {
  type AccountView,
  availableBalance,
  NO_CODE_HASH,
  STORAGE_BYTE_COST,
  viewAccount,
} from './view-account.js';
export { type RawViewResult, viewFunction, viewFunctionRaw } from './view-function.js';
