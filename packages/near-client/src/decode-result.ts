/** A function's result bytes: JSON when they parse, else the UTF-8 string; no bytes → null. */
export function decodeResult(bytes: Uint8Array): unknown {
  if (bytes.length === 0) return null;
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
