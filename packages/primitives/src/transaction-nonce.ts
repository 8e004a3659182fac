/**
 * The nonce types of TransactionV1 (core/primitives/src/transaction.rs), also used by DelegateV2.
 *
 * `TransactionNonce` borsh: 0 Nonce { nonce: u64 }, 1 GasKeyNonce { nonce: u64, nonce_index: u16 }; its JSON
 * is serde's external tagging, `{"Nonce":{"nonce":5}}` / `{"GasKeyNonce":{"nonce":5,"nonce_index":1}}`.
 * `NonceMode` borsh: 0 Monotonic, 1 Strict; JSON "monotonic" / "strict".
 */
import type { BorshReader, BorshWriter } from './borsh.js';
import { BorshError, InvalidViewError } from './errors.js';
import type { NonceMode } from './types.js';

export type TransactionNonce =
  | { kind: 'Nonce'; nonce: bigint }
  | { kind: 'GasKeyNonce'; nonce: bigint; nonceIndex: number };

export type TransactionNonceJson =
  | { Nonce: { nonce: number } }
  | { GasKeyNonce: { nonce: number; nonce_index: number } };

export type NonceModeJson = 'monotonic' | 'strict';

/** The largest number of nonces a gas key may have (`AccessKeyPermission::MAX_NONCES_FOR_GAS_KEY`). */
export const MAX_NONCES_FOR_GAS_KEY = 1024;

export function transactionNonce(nonce: bigint, nonceIndex?: number): TransactionNonce {
  return nonceIndex === undefined ? { kind: 'Nonce', nonce } : { kind: 'GasKeyNonce', nonce, nonceIndex };
}

export function writeTransactionNonce(w: BorshWriter, nonce: TransactionNonce): void {
  if (nonce.kind === 'Nonce') {
    w.u8(0).u64(nonce.nonce);
    return;
  }
  if (nonce.kind !== 'GasKeyNonce') {
    throw new BorshError(`unknown transaction nonce ${String((nonce as { kind: unknown }).kind)}`);
  }
  w.u8(1).u64(nonce.nonce).u16(nonce.nonceIndex);
}

export function readTransactionNonce(r: BorshReader): TransactionNonce {
  if (r.enumTag('TransactionNonce', 2) === 0) return { kind: 'Nonce', nonce: r.u64() };
  return { kind: 'GasKeyNonce', nonce: r.u64(), nonceIndex: r.u16() };
}

export function writeNonceMode(w: BorshWriter, mode: NonceMode): void {
  if (mode === 'Monotonic') w.u8(0);
  else if (mode === 'Strict') w.u8(1);
  else throw new BorshError(`unknown nonce mode ${String(mode)}`);
}

export function readNonceMode(r: BorshReader): NonceMode {
  return r.enumTag('NonceMode', 2) === 0 ? 'Monotonic' : 'Strict';
}

export function transactionNonceToJson(nonce: TransactionNonce): TransactionNonceJson {
  return nonce.kind === 'Nonce'
    ? { Nonce: { nonce: Number(nonce.nonce) } }
    : { GasKeyNonce: { nonce: Number(nonce.nonce), nonce_index: nonce.nonceIndex } };
}

function nonNegativeInteger(v: unknown, path: string, max: bigint): bigint {
  if (typeof v === 'bigint' && v >= 0n && v <= max) return v;
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0 && BigInt(v) <= max) return BigInt(v);
  throw new InvalidViewError(path, 'expected a non-negative integer');
}

export function transactionNonceFromJson(json: unknown, path = 'nonce'): TransactionNonce {
  if (typeof json !== 'object' || json === null || Array.isArray(json) || Object.keys(json).length !== 1) {
    throw new InvalidViewError(path, 'expected an object with exactly one variant key');
  }
  const [name, body] = Object.entries(json)[0];
  if (typeof body !== 'object' || body === null)
    throw new InvalidViewError(`${path}.${name}`, 'expected an object');
  const o = body as Record<string, unknown>;
  const nonce = nonNegativeInteger(o.nonce, `${path}.${name}.nonce`, (1n << 64n) - 1n);
  if (name === 'Nonce') return { kind: 'Nonce', nonce };
  if (name === 'GasKeyNonce') {
    const index = nonNegativeInteger(o.nonce_index, `${path}.${name}.nonce_index`, 0xffffn);
    return { kind: 'GasKeyNonce', nonce, nonceIndex: Number(index) };
  }
  throw new InvalidViewError(path, `unknown transaction nonce ${JSON.stringify(name)}`);
}

export function nonceModeToJson(mode: NonceMode): NonceModeJson {
  return mode === 'Strict' ? 'strict' : 'monotonic';
}

export function nonceModeFromJson(json: unknown, path = 'nonce_mode'): NonceMode {
  if (json === 'monotonic') return 'Monotonic';
  if (json === 'strict') return 'Strict';
  throw new InvalidViewError(path, 'expected "monotonic" or "strict"');
}
