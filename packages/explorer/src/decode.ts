/**
 * State entries as people can read them: JSON when the bytes are UTF-8 JSON, text when they are printable
 * UTF-8, else hex (borsh and other binary encodings; the page cannot know the contract's schema).
 */

export type Decoded = { kind: 'json' | 'utf8' | 'hex'; text: string };

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

export function hex(bytes: Uint8Array): string {
  let out = '';
  for (const b of bytes) out += b.toString(16).padStart(2, '0');
  return out;
}

export function hexToBytes(text: string): Uint8Array {
  const clean = text.replace(/^0x/i, '');
  const out = new Uint8Array(clean.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(clean.slice(2 * i, 2 * i + 2), 16);
  return out;
}

export function decodeBytes(bytes: Uint8Array): Decoded {
  let text: string;
  try {
    text = strictUtf8.decode(bytes);
  } catch {
    return { kind: 'hex', text: hex(bytes) };
  }
  // Control characters other than tab and newlines mean binary that happens to be valid UTF-8.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: that is the point
  if (bytes.length > 0 && /[\u0000-\u0008\u000e-\u001f\u007f]/.test(text)) {
    return { kind: 'hex', text: hex(bytes) };
  }
  const trimmed = text.trim();
  if (trimmed.startsWith('{') || trimmed.startsWith('[') || trimmed.startsWith('"')) {
    try {
      return { kind: 'json', text: prettyJson(JSON.parse(trimmed)) };
    } catch {
      // plain text after all
    }
  }
  return { kind: 'utf8', text };
}

/** Function-call arguments: JSON when they are, else the decoding above. */
export function decodeArgs(base64: string): Decoded {
  const s = atob(base64);
  const bytes = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) bytes[i] = s.charCodeAt(i);
  return decodeBytes(bytes);
}

/** Indented JSON, with arrays of numbers (byte arrays, payloads) kept on one line. */
export function prettyJson(value: unknown): string {
  return JSON.stringify(value, null, 2).replace(
    /\[\s+(-?[\d.e+-]+(?:,\s+-?[\d.e+-]+)*)\s+\]/g,
    (_, items: string) => `[${items.replace(/,\s+/g, ', ')}]`,
  );
}
