/**
 * Turns NEAR's signature responses into the forms chains use. NEAR's ECDSA response carries R compressed
 * (`affine_point`, 02/03 ‖ x) and low-S `s`; r is x, and the recovery bit is `recovery_id`: the 02/03 prefix
 * is R's own y parity, which differs from the recovery bit whenever the signer flipped s to low-S.
 */
import { ShadeboxError } from '@shadebox/errors';
import type { EcdsaSignatureResponse, EddsaSignatureResponse, SignatureResponse } from './types.js';

export type Hex = `0x${string}`;

/** The form viem and ethers take: `{r, s, yParity}` (32-byte hex each). */
export interface EvmSignature {
  r: Hex;
  s: Hex;
  yParity: 0 | 1;
}

/** Signature parts as bytes. */
export interface BitcoinSignature {
  /** 64 bytes r‖s (the "compact" form, e.g. for bitcoinjs `script.signature.encode`). */
  compact: Uint8Array;
  /** Strict DER encoding (without sighash byte), as in a Bitcoin script signature. */
  der: Uint8Array;
  /** The recovery id (0 or 1). */
  recoveryId: 0 | 1;
}

/** A signature response that is not the shape the signer contract returns. */
export class SignatureFormatError extends ShadeboxError {}

const HEX = /^[0-9a-fA-F]*$/;

function asEcdsa(sig: SignatureResponse | EcdsaSignatureResponse): { r: string; s: string; recovery: 0 | 1 } {
  if (!sig || typeof sig !== 'object') throw new SignatureFormatError('signature response must be an object');
  if (sig.scheme !== 'Secp256k1') {
    throw new SignatureFormatError(
      `expected an ECDSA (Secp256k1) signature, got scheme ${String(sig.scheme)}`,
    );
  }
  const point = sig.big_r?.affine_point;
  if (typeof point !== 'string' || point.length !== 66 || !HEX.test(point) || !/^0[23]/.test(point)) {
    throw new SignatureFormatError('big_r.affine_point must be 66 hex characters starting with 02 or 03');
  }
  const scalar = sig.s?.scalar;
  if (typeof scalar !== 'string' || scalar.length === 0 || scalar.length > 64 || !HEX.test(scalar)) {
    throw new SignatureFormatError('s.scalar must be up to 64 hex characters');
  }
  const recovery = sig.recovery_id;
  if (recovery !== 0 && recovery !== 1) {
    throw new SignatureFormatError(`recovery_id must be 0 or 1, got ${String(recovery)}`);
  }
  return { r: point.slice(2).toLowerCase(), s: scalar.toLowerCase().padStart(64, '0'), recovery };
}

/** `{r, s, yParity}` for EVM chains (viem `serializeSignature`, `recoverAddress`, …). */
export function toEvmSignature(sig: SignatureResponse | EcdsaSignatureResponse): EvmSignature {
  const { r, s, recovery } = asEcdsa(sig);
  return { r: `0x${r}`, s: `0x${s}`, yParity: recovery };
}

/** 65 bytes r‖s‖v as hex with `0x`, v = 27 + recovery_id (the legacy `eth_sign` form). */
export function toRsvHex(sig: SignatureResponse | EcdsaSignatureResponse): Hex {
  const { r, s, recovery } = asEcdsa(sig);
  return `0x${r}${s}${(27 + recovery).toString(16)}`;
}

/** 64 bytes r‖s. */
export function toCompactSignature(sig: SignatureResponse | EcdsaSignatureResponse): Uint8Array {
  const { r, s } = asEcdsa(sig);
  return new Uint8Array(Buffer.from(r + s, 'hex'));
}

/** DER `30 len 02 len r 02 len s` with minimal positive integers. */
export function toDerSignature(sig: SignatureResponse | EcdsaSignatureResponse): Uint8Array {
  const { r, s } = asEcdsa(sig);
  const ints = [derInteger(Buffer.from(r, 'hex')), derInteger(Buffer.from(s, 'hex'))];
  const content = Buffer.concat(ints);
  return new Uint8Array(Buffer.concat([Buffer.from([0x30, content.length]), content]));
}

function derInteger(value: Buffer): Buffer {
  let start = 0;
  while (start < value.length - 1 && value[start] === 0) start++;
  let bytes = value.subarray(start);
  if (bytes[0]! & 0x80) bytes = Buffer.concat([Buffer.from([0]), bytes]);
  return Buffer.concat([Buffer.from([0x02, bytes.length]), bytes]);
}

/** Bitcoin forms: compact r‖s, DER, and the recovery id. */
export function toBitcoinSignature(sig: SignatureResponse | EcdsaSignatureResponse): BitcoinSignature {
  const { recovery } = asEcdsa(sig);
  return { compact: toCompactSignature(sig), der: toDerSignature(sig), recoveryId: recovery };
}

/** The 64 signature bytes of an Ed25519 response (what Solana's `addSignature` takes). */
export function toSolanaSignature(sig: SignatureResponse | EddsaSignatureResponse): Uint8Array {
  if (!sig || typeof sig !== 'object') throw new SignatureFormatError('signature response must be an object');
  if (sig.scheme !== 'Ed25519') {
    throw new SignatureFormatError(`expected an EdDSA (Ed25519) signature, got scheme ${String(sig.scheme)}`);
  }
  const bytes = sig.signature;
  if (!Array.isArray(bytes) || bytes.length !== 64) {
    throw new SignatureFormatError('signature must be an array of 64 bytes');
  }
  for (const b of bytes) {
    if (!Number.isInteger(b) || b < 0 || b > 255) {
      throw new SignatureFormatError('signature bytes must be integers 0-255');
    }
  }
  return Uint8Array.from(bytes);
}

const BASE58 = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

/** The Ed25519 signature in base58, as Solana shows transaction signatures. */
export function toSolanaSignatureBase58(sig: SignatureResponse | EddsaSignatureResponse): string {
  const bytes = toSolanaSignature(sig);
  let n = BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
  let out = '';
  while (n > 0n) {
    out = BASE58[Number(n % 58n)] + out;
    n /= 58n;
  }
  for (const b of bytes) {
    if (b !== 0) break;
    out = `1${out}`;
  }
  return out;
}
