/**
 * Borsh of `AccessKey { nonce: u64, permission }`; permission 0 = FunctionCall { allowance: Option<u128>,
 * receiver_id: String, method_names: Vec<String> }, 1 = FullAccess (core/primitives-core/src/account.rs).
 * `receiver_id` is a plain String in borsh (validated later, by the runtime).
 */
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { BorshError } from './errors.js';
import type { AccessKey, AccessKeyPermission } from './types.js';

export function writeAccessKeyPermission(w: BorshWriter, permission: AccessKeyPermission): void {
  if (permission.kind === 'FullAccess') {
    w.u8(1);
    return;
  }
  if (permission.kind !== 'FunctionCall') {
    throw new BorshError(`unknown access key permission ${String((permission as { kind: unknown }).kind)}`);
  }
  w.u8(0);
  w.option(permission.allowance, (w, a) => w.u128(a));
  w.string(permission.receiverId);
  w.vec(permission.methodNames, (w, name) => w.string(name));
}

export function readAccessKeyPermission(r: BorshReader): AccessKeyPermission {
  if (r.enumTag('AccessKeyPermission', 2) === 1) return { kind: 'FullAccess' };
  const allowance = r.option((r) => r.u128());
  const receiverId = r.string();
  const methodNames = r.vec((r) => r.string(), 4);
  return { kind: 'FunctionCall', allowance, receiverId, methodNames };
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
