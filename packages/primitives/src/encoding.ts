/**
 * Text encodings of bytes: base58 (Bitcoin alphabet, as the `bs58` crate), base64 (standard alphabet with
 * canonical padding, as the `base64` crate's STANDARD engine nearcore uses), hex and UTF-8. Every decoder
 * is strict and throws `EncodingError` on malformed input.
 */
import { base58DecodeOrNull } from './base58.js';
import { EncodingError } from './errors.js';

export { base58Encode } from './base58.js';

export function base58Decode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new EncodingError('base58', 'not a string');
  const bytes = base58DecodeOrNull(text);
  if (bytes === null) throw new EncodingError('base58', 'unexpected character');
  return bytes;
}

export function base64Encode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/**
 * Node's base64 decoder silently skips characters it does not know and accepts missing padding; nearcore
 * (`base64` crate, STANDARD engine) rejects both, and rejects non-zero trailing bits. A string is accepted
 * here exactly when it is the canonical encoding of what it decodes to.
 */
export function base64Decode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new EncodingError('base64', 'not a string');
  const buf = Buffer.from(text, 'base64');
  if (buf.toString('base64') !== text) throw new EncodingError('base64', 'not canonical standard base64');
  return new Uint8Array(buf);
}

export function hexEncode(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex');
}

const HEX_RE = /^(?:[0-9a-fA-F]{2})*$/;

export function hexDecode(text: string): Uint8Array {
  if (typeof text !== 'string') throw new EncodingError('hex', 'not a string');
  if (!HEX_RE.test(text)) throw new EncodingError('hex', 'expected an even number of hex digits');
  const buf = Buffer.from(text, 'hex');
  return new Uint8Array(buf);
}

const encoder = new TextEncoder();
// `ignoreBOM: true` keeps a leading U+FEFF in the output, as Rust's `String::from_utf8` does.
const strictDecoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function utf8Encode(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Strict UTF-8 decoding: invalid sequences throw instead of becoming U+FFFD. */
export function utf8Decode(bytes: Uint8Array): string {
  try {
    return strictDecoder.decode(bytes);
  } catch {
    throw new EncodingError('utf-8', 'invalid UTF-8 sequence');
  }
}

/** Number of UTF-8 bytes of a string, without encoding it. */
export function utf8Length(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}
