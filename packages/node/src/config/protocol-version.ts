/**
 * Which protocol versions this node runs (core/primitives-core/src/version.rs): every version from
 * `MIN_SUPPORTED_PROTOCOL_VERSION` (83, nearcore 2.13's) to `STABLE_PROTOCOL_VERSION` (87, nearcore 2.14's,
 * the version testnet runs). Genesis `protocol_version` picks one; its runtime parameters come from the
 * store (runtime-config-store.ts) and the protocol features below say what else it switches.
 *
 * New chains default to the version NEAR mainnet runs: 86, nearcore 2.13.1's stable version (2.13.0 went from
 * 84 straight to 86; 85 was the version of its release candidates). 87 is chosen with genesis
 * `protocol_version` or `--protocol-version 87` (docs/configuration.md).
 */
import { ShadeboxError } from '@shadebox/errors';

/** The oldest protocol version nearcore 2.13 runs (`MIN_SUPPORTED_PROTOCOL_VERSION`). */
export const MIN_SUPPORTED_PROTOCOL_VERSION = 83;
/** The newest stable protocol version, nearcore 2.14's (`STABLE_PROTOCOL_VERSION`); testnet runs it. */
export const STABLE_PROTOCOL_VERSION = 87;
/** The protocol version of a new chain: the one mainnet runs. */
export const DEFAULT_PROTOCOL_VERSION = 86;

/** Every protocol version a genesis may name, oldest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly number[] = Object.freeze(
  Array.from(
    { length: STABLE_PROTOCOL_VERSION - MIN_SUPPORTED_PROTOCOL_VERSION + 1 },
    (_, i) => MIN_SUPPORTED_PROTOCOL_VERSION + i,
  ),
);

export function isSupportedProtocolVersion(version: number): boolean {
  return (
    Number.isInteger(version) &&
    version >= MIN_SUPPORTED_PROTOCOL_VERSION &&
    version <= STABLE_PROTOCOL_VERSION
  );
}

/** A protocol version outside the supported range was asked for. */
export class UnsupportedProtocolVersionError extends ShadeboxError<{
  protocolVersion: number;
  minSupported: number;
  stable: number;
}> {
  constructor(readonly protocolVersion: number) {
    super(
      `protocol version ${protocolVersion} is not supported: this node runs protocol versions ` +
        `${MIN_SUPPORTED_PROTOCOL_VERSION} to ${STABLE_PROTOCOL_VERSION}`,
      {
        details: {
          protocolVersion,
          minSupported: MIN_SUPPORTED_PROTOCOL_VERSION,
          stable: STABLE_PROTOCOL_VERSION,
        },
        docsPath: 'docs/configuration.md',
      },
    );
  }
}

/**
 * The protocol features of nearcore 2.13 and 2.14 that switch on inside the supported range, with the version they
 * start at (`ProtocolFeature::protocol_version`). Features of 83 and older are on at every supported version.
 * Most of what a version changes is in its parameters (a flag or a fee); these are the rest.
 */
export const PROTOCOL_FEATURES = Object.freeze({
  /** The Wasmtime engine and preparation v3 (reference types, bulk memory, the new contract limits). */
  Wasmtime: 84,
  GasKeys: 85,
  DelegateV2: 85,
  /** ML-DSA-65 keys and signatures (NEP-645). */
  PostQuantumSignatures: 85,
  YieldWithId: 85,
  /** NEP-642: gas bought at `min_gas_purchase_price`, `account_creation_charge`. */
  AccountCostIncrease: 85,
  /** Outcome metadata version 4 (per-action contract of the receiver) from chunk producers. */
  ExecutionMetadataV4: 85,
  FixDelegateActionDepositWithFunctionCallError: 85,
  FixDeleteAccountGlobalContractStorageUsage: 85,
  FixDelegatedDeterministicStateInit: 85,
  StrictNonce: 85,
  UniqueChunkTransactions: 85,
  /** A module that fails to load is charged the loading fee and aborts (was a zero-gas nop). */
  FixContractLoadingError: 86,
  /** The per-receipt storage-proof limit counts from the receipt's start, not each function call's. */
  EnforcePerReceiptStorageProofLimit: 86,
  // Protocol 87 (nearcore 2.14, version.rs at 0d8e7e07f19f). nearcore 2.14 lists FixContractLoadingError at
  // 87; 2.13.1 shipped it at 86, which mainnet runs, so it stays at 86 here (docs/deviations.md).
  RejectEmptyMethodName: 87,
  RejectDelegateV2: 87,
  RejectWithdrawFromGasKeyInDelegate: 87,
  /** `burnt_gas_reward` 3/10 → 0: contracts no longer earn part of the gas they burn. */
  RemoveGasRewards: 87,
  /** The per-receipt storage-proof limit is checked after every action (`ReceiptStorageProofSizeExceeded`). */
  EnforceStorageProofLimitForAllActions: 87,
  /** `max_receipt_total_input_size`: the promise inputs of one receipt are bounded. */
  ReceiptPromiseInputSizeLimit: 87,
  EarlyKickout: 87,
  FixMlDsaCostCharging: 87,
  GlobalContractSameChunkCallFix: 87,
  /** NEP-655: `0u…` accounts, the UniversalStateInit action, uninitialized accounts. */
  UniversalAccounts: 87,
} as const);
export type ProtocolFeature = keyof typeof PROTOCOL_FEATURES;

/** nearcore's `ProtocolFeature::enabled`: whether `feature` is on at `protocolVersion`. */
export function protocolFeatureEnabled(feature: ProtocolFeature, protocolVersion: number): boolean {
  return protocolVersion >= PROTOCOL_FEATURES[feature];
}
