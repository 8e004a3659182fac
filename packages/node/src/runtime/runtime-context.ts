/**
 * Everything the runtime needs to know about the protocol and the block being applied.
 */

import type { FeeContext } from '../config/fees.js';
import type { StorageUsageConfig } from '../state/storage-usage.js';
import type { Trie } from '../trie/index.js';
import type { ContractCache } from '../vm/contract-cache.js';
import type { VMConfig } from '../vm/vm-logic.js';
import type { BandwidthSchedulerConfig } from './bandwidth-scheduler.js';

export interface RuntimeLimits {
  maxActionsPerReceipt: number;
  /** `max_deploy_actions_per_receipt`: DeployContract and DeployGlobalContract actions together. */
  maxDeployActionsPerReceipt: number;
  maxTotalPrepaidGas: bigint;
  maxNumberBytesMethodNames: number;
  maxLengthMethodName: number;
  maxArgumentsLength: number;
  maxContractSize: number;
  maxTransactionSize: number;
  /** The storage limits a DeterministicStateInit's data entries must fit. */
  maxLengthStorageKey?: number;
  maxLengthStorageValue?: number;
  /** The protocol version, for actions a version gates (UniversalStateInit, NEP-655: 87). */
  protocolVersion?: number;
  /** `max_universal_state_init_keys`: the access keys one UniversalStateInit may commit to. */
  maxUniversalStateInitKeys?: number;
  /** `max_state_init_entries`: storage entries the state-init actions of one new receipt may carry in total
   * (1_500 from 87; absent: no limit). */
  maxStateInitEntries?: number;
}

export interface RuntimeParams extends FeeContext, StorageUsageConfig {
  storageAmountPerByte: bigint;
  /** `ml_dsa_65_verification_cost`: gas burnt at conversion per ML-DSA-65 signature a transaction carries. */
  mlDsa65VerificationCost: bigint;
  /** `global_contract_storage_amount_per_byte`: burnt per byte of a deployed global contract. */
  globalContractStorageAmountPerByte: bigint;
  limits: RuntimeLimits;
  minAllowedTopLevelAccountLength: number;
  registrarAccountId: string;
  /** `burnt_gas_reward` as [numerator, denominator] (30% of function-call gas goes to the contract). */
  burntGasReward: [bigint, bigint];
  /** `account_creation_charge`: burnt (out of the gas price surplus) when a receipt creates an account. */
  accountCreationCharge: bigint;
  /** The Wasm VM: host-function costs and limits, and prepared contracts by code hash. */
  vm: { config: VMConfig; cache: ContractCache };
  chainId: string;
  /** `yield_timeout_length_in_blocks`. */
  yieldTimeoutLength: bigint;
  maxLengthReturnedData: number;
  maxReceiptSize: number;
  /** `max_receipt_total_input_size`: bytes of borsh `ReceivedData` one receipt's promise inputs may total
   * (ReceiptPromiseInputSizeLimit, 4_194_944 from 87). */
  maxReceiptTotalInputSize: number;
  maxNumberInputDataDependencies: number;
  /** The protocol version the chain runs (its genesis `protocol_version`). */
  protocolVersion: number;
  /** `bandwidth_scheduler_config`: the scheduler every chunk runs (runtime/bandwidth-scheduler.ts). */
  bandwidthScheduler: BandwidthSchedulerConfig;
  /** The ETH wallet contract: in every shard's genesis state as a global contract (by code hash), and what
   * ETH-implicit accounts created by a transfer use. */
  ethWallet?: { code: Uint8Array; codeHash: Uint8Array };
}

/** The block whose chunk is being applied. */
export interface BlockContext {
  height: bigint;
  /** 32 bytes: hash of the block containing the chunk (receipt ids are derived from it). */
  blockHash: Uint8Array;
  gasPrice: bigint;
  timestampNs: bigint;
  epochLength: bigint;
  /** The smallest stake a Stake action may request (from the current epoch's seat price). */
  minimumStake: bigint;
  /** 32 bytes: the block's `random_value` (contracts' random seeds derive from it). */
  randomValue: Uint8Array;
  epochHeight: bigint;
  /** The current epoch's validator stakes (`validator_stake` / `validator_total_stake`). */
  validatorStakes: ReadonlyMap<string, bigint>;
  /** The shard whose chunk is applied, and how many there are (global contracts travel shard to shard);
   * 0 and 1 when absent. */
  shardId?: number;
  numShards?: number;
  /** The shard's trie at the chunk's `prev_state_root` (the root after the shard's previous chunk), with the
   * chunk's accounting cache (`trie.accounting`: trie-node gas, TOUCHING vs READ_CACHED) and recorder
   * (`trie.recorder`: the storage proof's size), both fresh for each chunk and shared by all its receipts, never
   * rolled back. Lookups on it see the state before the chunk; the chunk's own writes are in its `StateUpdate`.
   * Absent when no trie is kept (views, tests that apply a chunk alone). */
  trie?: Trie;
}
