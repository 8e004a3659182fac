/**
 * Fees of gas keys (NEP-611), as nearcore's core/parameters/src/cost.rs computes them (`gas_key_transfer_*`,
 * `gas_key_add_key_*`): TransferToGasKey and WithdrawFromGasKey pay `gas_key_transfer_base` plus
 * `gas_key_byte` per byte (the public key when sent; the access key's trie key and the smallest gas-key value
 * when executed); adding a gas key pays the key's fee plus, at execution, `gas_key_nonce_write_base` and
 * `gas_key_byte` for each nonce entry written (its trie key and the u64 nonce).
 */
import type { AccessKeyPermission, PublicKey } from '@shadebox/primitives';
import { type FeeTable, sendFee } from './fees.js';

/** Borsh length of the smallest gas key, `AccessKey { nonce, GasKeyFullAccess(GasKeyInfo) }`: 8 + 1 + 16 + 2. */
export const MIN_GAS_KEY_BORSH_LEN = 27n;
/** Borsh length of a nonce value (u64) stored per gas-key nonce. */
export const NONCE_VALUE_LEN = 8n;
/** Bytes of a nonce index (u16) at the end of a gas-key nonce's trie key. */
export const NONCE_INDEX_LEN = 2n;

/** The length of the public key in the trie (its borsh length for ed25519 and secp256k1). */
export function trieIdLen(publicKey: PublicKey): bigint {
  return 1n + BigInt(publicKey.data.length);
}

/** `access_key_key_len`: column byte, account id, separator byte, public key. */
export function accessKeyKeyLen(accountIdLen: bigint, publicKeyLen: bigint): bigint {
  return 1n + accountIdLen + 1n + publicKeyLen;
}

export interface SplitFee {
  base: bigint;
  perByte: bigint;
}

export function gasKeyTransferSendFee(fees: FeeTable, sir: boolean, publicKeyLen: bigint): SplitFee {
  return {
    base: sendFee(fees.gas_key_transfer_base, sir),
    perByte: sendFee(fees.gas_key_byte, sir) * publicKeyLen,
  };
}

export function gasKeyTransferExecFee(fees: FeeTable, accountIdLen: bigint, publicKeyLen: bigint): SplitFee {
  return {
    base: fees.gas_key_transfer_base.execution,
    perByte:
      fees.gas_key_byte.execution * (accessKeyKeyLen(accountIdLen, publicKeyLen) + MIN_GAS_KEY_BORSH_LEN),
  };
}

/** The send part of adding a gas key's nonces (`gas_key_nonce_write_base` has no send fee at 85). */
export function gasKeyAddKeySendFee(fees: FeeTable, sir: boolean): bigint {
  return sendFee(fees.gas_key_nonce_write_base, sir);
}

export function gasKeyAddKeyExecFee(
  fees: FeeTable,
  accountIdLen: bigint,
  publicKeyLen: bigint,
  numNonces: number,
): SplitFee {
  const n = BigInt(numNonces);
  const nonceKeyLen = accessKeyKeyLen(accountIdLen, publicKeyLen) + NONCE_INDEX_LEN;
  return {
    base: fees.gas_key_nonce_write_base.execution * n,
    perByte: fees.gas_key_byte.execution * (nonceKeyLen + NONCE_VALUE_LEN) * n,
  };
}

function gasKeyInfo(permission: AccessKeyPermission) {
  return permission.kind === 'GasKeyFullAccess' || permission.kind === 'GasKeyFunctionCall'
    ? permission.gasKeyInfo
    : null;
}

/** What adding `permission` costs beyond an ordinary key when sent (nearcore `permission_send_fees`). */
export function gasKeyPermissionSendFee(
  fees: FeeTable,
  permission: AccessKeyPermission,
  sir: boolean,
): bigint {
  return gasKeyInfo(permission) ? gasKeyAddKeySendFee(fees, sir) : 0n;
}

/** What adding `permission` to `accountId` costs beyond an ordinary key when executed; `publicKeyLen` is the
 * key length the fee is priced on (fees.ts: the wire length before 87, the stored length from 87). */
export function gasKeyPermissionExecFee(
  fees: FeeTable,
  permission: AccessKeyPermission,
  accountId: string,
  publicKeyLen: bigint,
): bigint {
  const info = gasKeyInfo(permission);
  if (!info) return 0n;
  const f = gasKeyAddKeyExecFee(fees, BigInt(Buffer.byteLength(accountId)), publicKeyLen, info.numNonces);
  return f.base + f.perByte;
}
