/**
 * Borsh of `AccessKey { nonce: u64, permission }`; permission 0 = FunctionCall { allowance: Option<u128>,
 * receiver_id: String, method_names: Vec<String> }, 1 = FullAccess, 2 = GasKeyFunctionCall(GasKeyInfo,
 * FunctionCallPermission), 3 = GasKeyFullAccess(GasKeyInfo), GasKeyInfo = { balance: u128, num_nonces: u16 }
 * (core/primitives-core/src/account.rs). `receiver_id` is a plain String in borsh (validated later, by the
 * runtime).
 */
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { BorshError } from './errors.js';
import { readGasKeyInfo, writeGasKeyInfo } from './gas-key-borsh.js';
import type { AccessKey, AccessKeyPermission, FunctionCallPermission } from './types.js';

export function writeAccessKeyPermission(w: BorshWriter, permission: AccessKeyPermission): void {
  switch (permission.kind) {
    case 'FullAccess':
      w.u8(1);
      return;
    case 'FunctionCall':
      w.u8(0);
      writeFunctionCallPermission(w, permission);
      return;
    case 'GasKeyFunctionCall':
      w.u8(2);
      writeGasKeyInfo(w, permission.gasKeyInfo);
      writeFunctionCallPermission(w, permission);
      return;
    case 'GasKeyFullAccess':
      w.u8(3);
      writeGasKeyInfo(w, permission.gasKeyInfo);
      return;
    default:
      throw new BorshError(`unknown access key permission ${String((permission as { kind: unknown }).kind)}`);
  }
}

function writeFunctionCallPermission(w: BorshWriter, permission: FunctionCallPermission): void {
  w.option(permission.allowance, (w, a) => w.u128(a));
  w.string(permission.receiverId);
  w.vec(permission.methodNames, (w, name) => w.string(name));
}

function readFunctionCallPermission(r: BorshReader): FunctionCallPermission {
  const allowance = r.option((r) => r.u128());
  const receiverId = r.string();
  const methodNames = r.vec((r) => r.string(), 4);
  return { allowance, receiverId, methodNames };
}

export function readAccessKeyPermission(r: BorshReader): AccessKeyPermission {
  switch (r.enumTag('AccessKeyPermission', 4)) {
    case 0:
      return { kind: 'FunctionCall', ...readFunctionCallPermission(r) };
    case 1:
      return { kind: 'FullAccess' };
    case 2: {
      const gasKeyInfo = readGasKeyInfo(r);
      return { kind: 'GasKeyFunctionCall', gasKeyInfo, ...readFunctionCallPermission(r) };
    }
    default:
      return { kind: 'GasKeyFullAccess', gasKeyInfo: readGasKeyInfo(r) };
  }
}

/** The gas-key part of a permission, or null for an ordinary access key. */
export function gasKeyInfoOf(permission: AccessKeyPermission): { balance: bigint; numNonces: number } | null {
  return permission.kind === 'GasKeyFunctionCall' || permission.kind === 'GasKeyFullAccess'
    ? permission.gasKeyInfo
    : null;
}

/** The function-call restriction of a permission (FunctionCall or GasKeyFunctionCall), or null. */
export function functionCallPermissionOf(permission: AccessKeyPermission): FunctionCallPermission | null {
  return permission.kind === 'FunctionCall' || permission.kind === 'GasKeyFunctionCall' ? permission : null;
}

export function writeAccessKey(w: BorshWriter, accessKey: AccessKey): void {
  w.u64(accessKey.nonce);
  writeAccessKeyPermission(w, accessKey.permission);
}

export function readAccessKey(r: BorshReader): AccessKey {
  return { nonce: r.u64(), permission: readAccessKeyPermission(r) };
}

export function encodeAccessKey(accessKey: AccessKey): Uint8Array {
  return encodeBorsh((w) => writeAccessKey(w, accessKey));
}

export function decodeAccessKey(bytes: Uint8Array): AccessKey {
  return decodeBorsh(bytes, readAccessKey);
}

export function fullAccessKey(nonce = 0n): AccessKey {
  return { nonce, permission: { kind: 'FullAccess' } };
}

export function functionCallAccessKey(
  receiverId: string,
  methodNames: string[] = [],
  allowance: bigint | null = null,
  nonce = 0n,
): AccessKey {
  return { nonce, permission: { kind: 'FunctionCall', allowance, receiverId, methodNames } };
}

/** A gas key as nearcore creates it: key nonce 0, balance 0 (funded later with TransferToGasKey). */
export function gasKeyFullAccessKey(numNonces: number): AccessKey {
  return { nonce: 0n, permission: { kind: 'GasKeyFullAccess', gasKeyInfo: { balance: 0n, numNonces } } };
}

export function gasKeyFunctionCallAccessKey(
  numNonces: number,
  receiverId: string,
  methodNames: string[] = [],
  allowance: bigint | null = null,
): AccessKey {
  return {
    nonce: 0n,
    permission: {
      kind: 'GasKeyFunctionCall',
      gasKeyInfo: { balance: 0n, numNonces },
      allowance,
      receiverId,
      methodNames,
    },
  };
}
