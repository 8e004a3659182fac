/**
 * The protocol's data types as plain TypeScript values.
 *
 * Amounts (yoctoNEAR) and gas are `bigint`; nonces and heights are `bigint` too because they are u64 on the
 * wire. Binary data is `Uint8Array`. These are the shapes borsh encodes; the JSON views used on the RPC are in
 * `views.ts`.
 */

import type {
  GlobalContractDeployMode,
  GlobalContractDistribution,
  GlobalContractIdentifier,
} from './global-contract.js';
import type { DeterministicAccountStateInit } from './state-init.js';
import type { TransactionNonce } from './transaction-nonce.js';

/** 0 = ed25519 (32-byte key, 64-byte signature), 1 = secp256k1 (64-byte uncompressed key without the 0x04
 * prefix, 65-byte signature r‖s‖v), 2 = ML-DSA-65 (FIPS 204: 1952-byte key, 3309-byte signature). */
export type KeyType = 0 | 1 | 2;
export const KEY_TYPE_ED25519 = 0 as const;
export const KEY_TYPE_SECP256K1 = 1 as const;
export const KEY_TYPE_ML_DSA_65 = 2 as const;

export interface PublicKey {
  keyType: KeyType;
  /** 32 bytes for ed25519, 64 for secp256k1, 1952 for ML-DSA-65. */
  data: Uint8Array;
}

export interface Signature {
  keyType: KeyType;
  /** 64 bytes for ed25519, 65 for secp256k1, 3309 for ML-DSA-65. */
  data: Uint8Array;
}

export interface FunctionCallPermission {
  /** `null` means unlimited allowance. */
  allowance: bigint | null;
  receiverId: string;
  methodNames: string[];
}

/** The prepaid balance of a gas key (NEP-611) and how many independent nonces it has (1..=1024). */
export interface GasKeyInfo {
  balance: bigint;
  /** u16. */
  numNonces: number;
}

/** Borsh variants 0 FunctionCall, 1 FullAccess, 2 GasKeyFunctionCall, 3 GasKeyFullAccess. */
export type AccessKeyPermission =
  | { kind: 'FullAccess' }
  | ({ kind: 'FunctionCall' } & FunctionCallPermission)
  | ({ kind: 'GasKeyFunctionCall'; gasKeyInfo: GasKeyInfo } & FunctionCallPermission)
  | { kind: 'GasKeyFullAccess'; gasKeyInfo: GasKeyInfo };

export interface AccessKey {
  nonce: bigint;
  permission: AccessKeyPermission;
}

export interface DelegateAction {
  senderId: string;
  receiverId: string;
  /** Any action except another Delegate. */
  actions: Action[];
  nonce: bigint;
  maxBlockHeight: bigint;
  publicKey: PublicKey;
}

export interface SignedDelegateAction {
  delegateAction: DelegateAction;
  signature: Signature;
}

/** `DelegateActionV2` (NEP-611): a delegate action whose nonce may be one of a gas key's nonces. It travels as
 * `VersionedDelegateActionPayload::V2` (borsh tag 0) in action 14 `DelegateV2` (delegate-action-v2.ts). */
export interface DelegateActionV2 {
  senderId: string;
  receiverId: string;
  /** Never a Delegate or DelegateV2. */
  actions: Action[];
  nonce: TransactionNonce;
  maxBlockHeight: bigint;
  publicKey: PublicKey;
}

/** `VersionedSignedDelegateAction`: the V2 payload and the signature over its NEP-461 (NEP-611) hash. */
export interface VersionedSignedDelegateAction {
  delegateAction: DelegateActionV2;
  signature: Signature;
}

/** Action enum; `type` names follow nearcore, discriminants 0..8 in this order, then 9 DeployGlobalContract and
 * 10 UseGlobalContract (global-contract.ts), 12 TransferToGasKey, 13 WithdrawFromGasKey and 14 DelegateV2. */
export type Action =
  | { type: 'CreateAccount' }
  | { type: 'DeployContract'; code: Uint8Array }
  | { type: 'FunctionCall'; methodName: string; args: Uint8Array; gas: bigint; deposit: bigint }
  | { type: 'Transfer'; deposit: bigint }
  | { type: 'Stake'; stake: bigint; publicKey: PublicKey }
  | { type: 'AddKey'; publicKey: PublicKey; accessKey: AccessKey }
  | { type: 'DeleteKey'; publicKey: PublicKey }
  | { type: 'DeleteAccount'; beneficiaryId: string }
  | { type: 'Delegate'; signedDelegateAction: SignedDelegateAction }
  | { type: 'DeployGlobalContract'; code: Uint8Array; deployMode: GlobalContractDeployMode }
  | { type: 'UseGlobalContract'; contractIdentifier: GlobalContractIdentifier }
  | { type: 'DeterministicStateInit'; stateInit: DeterministicAccountStateInit; deposit: bigint }
  | { type: 'TransferToGasKey'; publicKey: PublicKey; deposit: bigint }
  | { type: 'WithdrawFromGasKey'; publicKey: PublicKey; amount: bigint }
  | { type: 'DelegateV2'; signedDelegateAction: VersionedSignedDelegateAction }
  /** NEP-655 (protocol 87): `stateInit` is the borsh of a `UniversalStateInit` exactly as sent (universal-state-init.ts). */
  | { type: 'UniversalStateInit'; stateInit: Uint8Array; deposit: bigint };

export type ActionType = Action['type'];

/** How a TransactionV1's nonce is checked: `Monotonic` (greater than the key's nonce, as V0) or `Strict`
 * (exactly the key's nonce + 1). JSON "monotonic" / "strict". */
export type NonceMode = 'Monotonic' | 'Strict';

export interface Transaction {
  /** 0 = TransactionV0; 1 = TransactionV1 (borsh-prefixed with byte 0x01; its nonce is a `TransactionNonce`
   * and it ends with a `NonceMode`). */
  version: 0 | 1;
  signerId: string;
  publicKey: PublicKey;
  nonce: bigint;
  /** V1 only: set when the nonce is a gas-key nonce (`TransactionNonce::GasKeyNonce`), which of the gas key's
   * nonces it advances (u16). */
  nonceIndex?: number;
  receiverId: string;
  /** 32 bytes. */
  blockHash: Uint8Array;
  actions: Action[];
  /** V1 only; absent means Monotonic. */
  nonceMode?: NonceMode;
}

export interface SignedTransaction {
  transaction: Transaction;
  signature: Signature;
}

export interface DataReceiver {
  /** 32 bytes. */
  dataId: Uint8Array;
  receiverId: string;
}

export interface ActionReceipt {
  signerId: string;
  signerPublicKey: PublicKey;
  gasPrice: bigint;
  outputDataReceivers: DataReceiver[];
  /** 32-byte data ids. */
  inputDataIds: Uint8Array[];
  actions: Action[];
  /** nearcore's `ActionReceiptV2` (ReceiptEnum `ActionV2` / `PromiseYieldV2`), the receipts contracts create
   * from protocol 82 on (`DeterministicAccountIds`); absent or false: `ActionReceipt`. */
  v2?: boolean;
  /** V2 only: the account a balance refund of this receipt goes to instead of the predecessor
   * (`promise_set_refund_to`). */
  refundTo?: string;
}

export interface DataReceipt {
  dataId: Uint8Array;
  /** `null` when the producing receipt failed. */
  data: Uint8Array | null;
}

export interface Receipt {
  predecessorId: string;
  receiverId: string;
  /** 32 bytes. */
  receiptId: Uint8Array;
  receipt:
    | ({ kind: 'Action' } & ActionReceipt & { isPromiseYield: boolean })
    | ({ kind: 'Data' } & DataReceipt & { isPromiseResume: boolean })
    | ({ kind: 'GlobalContractDistribution' } & GlobalContractDistribution);
  priority: bigint;
  /** Borsh version: ReceiptV0 (no priority) or ReceiptV1 (0x01 prefix, priority u64 at the end). When absent,
   * encoding uses V0 if `priority` is 0 and V1 otherwise; decoding always sets it. */
  version?: 0 | 1;
}
