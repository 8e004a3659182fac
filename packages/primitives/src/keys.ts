/**
 * Public keys and signatures in their string form, `<key type>:<base58 data>` (core/crypto/src/signature.rs):
 * the prefix is case-insensitive and, when absent, means ed25519.
 */
import { base58Decode, base58Encode } from './encoding.js';
import { InvalidPublicKeyError, InvalidSignatureError } from './errors.js';
import {
  KEY_TYPE_ED25519,
  KEY_TYPE_ML_DSA_65,
  KEY_TYPE_SECP256K1,
  type KeyType,
  type PublicKey,
  type Signature,
} from './types.js';

export type KeyTypeName = 'ed25519' | 'secp256k1' | 'ml-dsa-65';

export const PUBLIC_KEY_LENGTH: Readonly<Record<KeyType, number>> = { 0: 32, 1: 64, 2: 1952 };
export const SIGNATURE_LENGTH: Readonly<Record<KeyType, number>> = { 0: 64, 1: 65, 2: 3309 };

export function keyTypeName(keyType: KeyType): KeyTypeName {
  if (keyType === KEY_TYPE_ML_DSA_65) return 'ml-dsa-65';
  return keyType === KEY_TYPE_SECP256K1 ? 'secp256k1' : 'ed25519';
}

/** `ed25519` / `secp256k1` / `ml-dsa-65` in any case; null for anything else. */
export function parseKeyTypeName(name: string): KeyType | null {
  const lower = name.toLowerCase();
  if (lower === 'ed25519') return KEY_TYPE_ED25519;
  if (lower === 'secp256k1') return KEY_TYPE_SECP256K1;
  if (lower === 'ml-dsa-65') return KEY_TYPE_ML_DSA_65;
  return null;
}

export function isKeyType(value: unknown): value is KeyType {
  return value === KEY_TYPE_ED25519 || value === KEY_TYPE_SECP256K1 || value === KEY_TYPE_ML_DSA_65;
}

function splitKeyString(text: string): { keyType: KeyType | null; data: string; prefix: string } {
  const colon = text.indexOf(':');
  if (colon < 0) return { keyType: KEY_TYPE_ED25519, data: text, prefix: '' };
  const prefix = text.slice(0, colon);
  return { keyType: parseKeyTypeName(prefix), data: text.slice(colon + 1), prefix };
}

export function publicKeyToString(publicKey: PublicKey): string {
  return `${keyTypeName(publicKey.keyType)}:${base58Encode(publicKey.data)}`;
}

export function makePublicKey(keyType: KeyType, data: Uint8Array): PublicKey {
  if (!isKeyType(keyType)) {
    throw new InvalidPublicKeyError(`unknown key type ${String(keyType)}`);
  }
  if (!(data instanceof Uint8Array) || data.length !== PUBLIC_KEY_LENGTH[keyType]) {
    throw new InvalidPublicKeyError(
      `${keyTypeName(keyType)} key must be ${PUBLIC_KEY_LENGTH[keyType]} bytes, got ${data?.length}`,
    );
  }
  return { keyType, data };
}

export function parsePublicKey(text: string): PublicKey {
  if (typeof text !== 'string') throw new InvalidPublicKeyError('not a string');
  const { keyType, data, prefix } = splitKeyString(text);
  if (keyType === null)
    throw new InvalidPublicKeyError(`unknown key type ${JSON.stringify(prefix.slice(0, 20))}`);
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(data);
  } catch {
    throw new InvalidPublicKeyError('key data is not base58');
  }
  return makePublicKey(keyType, bytes);
}

export function isValidPublicKeyString(text: unknown): text is string {
  if (typeof text !== 'string') return false;
  try {
    parsePublicKey(text);
    return true;
  } catch {
    return false;
  }
}

export function publicKeysEqual(a: PublicKey, b: PublicKey): boolean {
  return a.keyType === b.keyType && bytesEqualFast(a.data, b.data);
}

export function signatureToString(signature: Signature): string {
  return `${keyTypeName(signature.keyType)}:${base58Encode(signature.data)}`;
}

export function makeSignature(keyType: KeyType, data: Uint8Array): Signature {
  if (!isKeyType(keyType)) {
    throw new InvalidSignatureError(`unknown key type ${String(keyType)}`);
  }
  if (!(data instanceof Uint8Array) || data.length !== SIGNATURE_LENGTH[keyType]) {
    throw new InvalidSignatureError(
      `${keyTypeName(keyType)} signature must be ${SIGNATURE_LENGTH[keyType]} bytes, got ${data?.length}`,
    );
  }
  return { keyType, data };
}

export function parseSignature(text: string): Signature {
  if (typeof text !== 'string') throw new InvalidSignatureError('not a string');
  const { keyType, data, prefix } = splitKeyString(text);
  if (keyType === null)
    throw new InvalidSignatureError(`unknown key type ${JSON.stringify(prefix.slice(0, 20))}`);
  let bytes: Uint8Array;
  try {
    bytes = base58Decode(data);
  } catch {
    throw new InvalidSignatureError('signature data is not base58');
  }
  return makeSignature(keyType, bytes);
}

export function signaturesEqual(a: Signature, b: Signature): boolean {
  return a.keyType === b.keyType && bytesEqualFast(a.data, b.data);
}

function bytesEqualFast(a: Uint8Array, b: Uint8Array): boolean {
  return a.length === b.length && Buffer.compare(a, b) === 0;
}
