export {
  type AgentKeyFileContent,
  agentAccountIdOf,
  loadOrCreateAgentKeyFile,
  poolKeysOf,
  readAgentKeyFile,
} from './agent-key-file.js';
export { BootError, StoppedError } from './boot-error.js';
export {
  type AgentApiConfig,
  ConfigError,
  type ConfigProblem,
  loadAgentApiConfig,
  type TeeMode,
} from './config.js';
export { HttpError } from './http-error.js';
export { AgentApiListenError } from './listen-error.js';
export { openApiDocument } from './openapi.js';
export {
  LOCAL_ATTESTATION,
  LOCAL_DSTACK_ATTESTATION,
  REGISTER_DEPOSIT,
  type WhitelistedAgent,
} from './register-whitelisted.js';
export {
  contractMethods,
  detectRegistrationFlow,
  type RegistrationFlow,
  registrationFlowOf,
} from './registration-flow.js';
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
export {
  type DstackAttestation2,
  dstackAttestation2,
  dstackProvider,
  localProvider,
  reportDataFor,
  TeeError,
  type TeeProvider,
} from './tee/index.js';
export { WasmModuleError, wasmExportedFunctions } from './wasm-exports.js';
