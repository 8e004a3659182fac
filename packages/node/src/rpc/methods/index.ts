/**
 * The JSON-RPC methods this node serves, by name.
 */
import type { RpcMethod } from '../rpc-context.js';
import { block } from './block.js';
import { changes, changesInBlock, experimentalChanges } from './changes.js';
import { chunk } from './chunk.js';
import { genesisConfig, protocolConfig, receipt } from './config-views.js';
import { experimentalCallFunction, experimentalView } from './experimental-views.js';
import { gasPrice } from './gas-price.js';
import { experimentalIndexerBlock } from './indexer-block.js';
import {
  lightClientBlockProofMethod,
  lightClientChunkExecutionProof,
  lightClientExecutionOutcomeProof,
  lightClientProof,
  lightClientStateProof,
  nextLightClientBlock,
} from './light-client.js';
import { maintenanceWindows } from './maintenance-windows.js';
import { health, networkInfo, status, validators } from './node-info.js';
import { query } from './query.js';
import { receiptToTx } from './receipt-to-tx.js';
import {
  sandboxFastForward,
  sandboxPatchState,
  sandboxProduceBlocks,
  sandboxRevert,
  sandboxSetNextBlockTimestamp,
  sandboxSnapshot,
} from './sandbox.js';
import { broadcastTxAsync, broadcastTxCommit, sendTx, txStatus } from './transactions.js';

export const METHODS: Record<string, RpcMethod> = {
  status,
  health,
  network_info: networkInfo,
  validators,
  block,
  chunk,
  gas_price: gasPrice,
  query,
  send_tx: sendTx,
  broadcast_tx_async: broadcastTxAsync,
  broadcast_tx_commit: broadcastTxCommit,
  tx: txStatus(false),
  EXPERIMENTAL_tx_status: txStatus(true),
  tx_status: txStatus(true),
  EXPERIMENTAL_receipt: receipt,
  EXPERIMENTAL_genesis_config: genesisConfig,
  genesis_config: genesisConfig,
  EXPERIMENTAL_protocol_config: protocolConfig,
  maintenance_windows: maintenanceWindows,
  EXPERIMENTAL_maintenance_windows: maintenanceWindows,
  // Developer controls (docs/dev-controls.md).
  sandbox_patch_state: sandboxPatchState,
  sandbox_fast_forward: sandboxFastForward,
  sandbox_produce_blocks: sandboxProduceBlocks,
  sandbox_set_next_block_timestamp: sandboxSetNextBlockTimestamp,
  sandbox_snapshot: sandboxSnapshot,
  sandbox_revert: sandboxRevert,
  changes,
  EXPERIMENTAL_changes: experimentalChanges,
  EXPERIMENTAL_changes_in_block: changesInBlock,
  block_effects: changesInBlock,
  // nearcore 2.14's query request types as methods of their own (experimental-views.ts).
  EXPERIMENTAL_view_account: experimentalView('view_account', 'RpcViewAccountRequest'),
  EXPERIMENTAL_view_code: experimentalView('view_code', 'RpcViewCodeRequest'),
  EXPERIMENTAL_view_state: experimentalView('view_state', 'RpcViewStateRequest'),
  EXPERIMENTAL_view_access_key: experimentalView('view_access_key', 'RpcViewAccessKeyRequest'),
  EXPERIMENTAL_view_access_key_list: experimentalView('view_access_key_list', 'RpcViewAccessKeyListRequest'),
  EXPERIMENTAL_view_gas_key_nonces: experimentalView('view_gas_key_nonces', 'RpcViewGasKeyNoncesRequest'),
  EXPERIMENTAL_call_function: experimentalCallFunction,
  EXPERIMENTAL_receipt_to_tx: receiptToTx,
  EXPERIMENTAL_indexer_block: experimentalIndexerBlock,
  // Light client (chain/light-client.ts).
  next_light_client_block: nextLightClientBlock,
  light_client_proof: lightClientProof,
  EXPERIMENTAL_light_client_proof: lightClientProof,
  EXPERIMENTAL_light_client_block_proof: lightClientBlockProofMethod,
  EXPERIMENTAL_light_client_chunk_execution_proof: lightClientChunkExecutionProof,
  EXPERIMENTAL_light_client_execution_outcome_proof: lightClientExecutionOutcomeProof,
  EXPERIMENTAL_light_client_state_proof: lightClientStateProof,
};
