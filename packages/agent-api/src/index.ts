export {
  ContractError,
  KeyPool,
  outcomeResult,
  STORAGE_BYTE_COST,
  viewAccount,
  viewFunction,
} from './chain.js';
export { type AgentApiConfig, ConfigError, loadAgentApiConfig, type TeeMode } from './config.js';
export { openApiDocument } from './openapi.js';
export { ChainUnavailableError, RpcClient, RpcError } from './rpc.js';
export { keyPairFromSeedPhrase } from './seed-phrase.js';
export {
  type AgentApiLogger,
  type AgentApiStatus,
  BASE_PATH,
  type BootStage,
  type RunningAgentApi,
  type StartAgentApiOptions,
  startAgentApi,
} from './service.js';
export { dstackProvider, localProvider, type TeeProvider } from './tee/index.js';
