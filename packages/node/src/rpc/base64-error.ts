/**
 * The `base64` crate's decode error texts, as nearcore reports a bad base64 field.
 */

const BASE64_ALPHABET = /[A-Za-z0-9+/]/;

/** The `base64` crate's `DecodeError` text (STANDARD engine) for a string `base64Decode` refused. */
export function base64ErrorText(text: string): string {
  const body = text.replace(/=+$/, '');
  for (let i = 0; i < body.length; i++) {
    if (!BASE64_ALPHABET.test(body[i])) return `Invalid symbol ${body.charCodeAt(i)}, offset ${i}.`;
  }
  if (body.length % 4 === 1) return `Invalid input length: ${body.length}`;
  if (text.length % 4 !== 0 || text.length - body.length > 2) return 'Invalid padding';
  return `Invalid last symbol ${body.charCodeAt(body.length - 1)}, offset ${body.length - 1}.`;
}
