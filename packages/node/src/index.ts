/**
 * @shadebox/node — a NEAR-protocol node: runtime, chain, store and JSON-RPC.
 */

export type { ProductionMode } from './chain/block-producer.js';
export { Chain } from './chain/chain.js';
export { dumpHomeState, type StateDump, stateRecordsAt } from './chain/dump-state.js';
export { hasPendingYield, queuedYieldTimeouts } from './chain/pending-yields.js';
export { serializeGenesis } from './config/genesis-json.js';
export { createEphemeralHome, type Home, HomeExistsError, initHome, loadHome } from './config/init-home.js';
export { loadRuntimeConfig, PROTOCOL_VERSION } from './config/runtime-config.js';
export { createLogger, type Logger, silentLogger } from './logger.js';
export {
  checkExplorerSettings,
  type ExplorerEvmSettings,
  type ExplorerSettings,
} from './rpc/explorer-settings.js';
export { METHODS as RPC_METHOD_TABLE } from './rpc/methods/index.js';
export { NODE_VERSION, type RunningNode, type StartNodeOptions, startNode } from './start-node.js';
export {
  type AnsweredSignature,
  attachTxLog,
  type ChainSignatureAnswers,
  type Colours,
  coloursFor,
  type EcdsaSignatureParts,
  type EvmSignatureUse,
  evmSignatureLine,
  formatBlockEntries,
  NO_COLOURS,
  rememberChainSignatureAnswers,
  type TxLogOptions,
} from './tx-log/index.js';
