/**
 * serde's deserialisation rules, as nearcore reads request params into its request types
 * (`serde_json::from_value` on the params `Value`), with serde's own error texts:
 *
 * - a `Value` object is a `BTreeMap` (serde_json without `preserve_order`), so a struct sees its keys in sorted
 *   order: the first bad field in key order is the one reported, a flattened enum takes the first of its variant
 *   keys in key order, and missing fields are reported in declaration order after all keys were read;
 * - a struct with a `#[serde(flatten)]` field is read as a map only ("expected struct Name" for anything else); a
 *   plain struct also reads a JSON array, field by field;
 * - the value types (`CryptoHash`, `AccountId`, near-crypto's `PublicKey`, base64 blobs) fail with the messages
 *   their `Deserialize` impls give.
 *
 * Every error is thrown as PARSE_ERROR "Failed parsing args: <serde message>" (nearcore's `Params::parse`).
 */
import { accountIdError } from '@shadebox/primitives';
import { parseAccountErrorText } from './account-id-error.js';
import { failParse, type Params, typeName } from './params.js';

/** serde's `OneOf`: "`a`", "`a` or `b`", "one of `a`, `b`, `c`". */
export function oneOf(names: readonly string[]): string {
  const quoted = names.map((n) => `\`${n}\``);
  if (quoted.length === 1) return quoted[0];
  if (quoted.length === 2) return `${quoted[0]} or ${quoted[1]}`;
  return `one of ${quoted.join(', ')}`;
}

/** An unknown variant name: `unknown variant \`x\`, expected …`. */
export function unknownVariantText(name: string, variants: readonly string[]): string {
  return variants.length === 0
    ? `unknown variant \`${name}\`, there are no variants`
    : `unknown variant \`${name}\`, expected ${oneOf(variants)}`;
}

/**
 * A unit-only enum (`Finality`, `SyncCheckpoint`, `TxExecutionStatus`) read from a JSON value: a string names the
 * variant; a map of exactly one key names it too, with a `null` value; anything else is "expected string or map".
 */
export function unitVariant<T extends string>(value: unknown, variants: readonly T[]): T {
  let name: unknown = value;
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length !== 1) failParse('invalid value: map, expected map with a single key');
    const [key, inner] = entries[0];
    if (!variants.includes(key as T)) failParse(unknownVariantText(key, variants));
    if (inner !== null) failParse(`invalid type: ${typeName(inner)}, expected unit`);
    name = key;
  } else if (typeof value !== 'string') {
    failParse(`invalid type: ${typeName(value)}, expected string or map`);
  }
  if (!variants.includes(name as T)) failParse(unknownVariantText(name as string, variants));
  return name as T;
}

/** The entries of an object read as a struct, in the order serde sees them (sorted keys). Anything but an object
 * fails with "expected struct <name>" (a flattened struct is read as a map only). */
export function structEntries(value: unknown, structName: string): Array<[string, unknown]> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    failParse(`invalid type: ${typeName(value)}, expected struct ${structName}`);
  return Object.keys(value as Params)
    .sort()
    .map((key) => [key, (value as Params)[key]]);
}

/**
 * A flattened externally tagged enum (`BlockReference`, `EpochReference`) takes the first entry, in key order,
 * whose key names one of its variants, and removes it from what the other flattened fields see.
 */
export function takeFlattenedVariant<T extends string>(
  entries: Array<[string, unknown]>,
  enumName: string,
  variants: readonly T[],
): [T, unknown] {
  const index = entries.findIndex(([key]) => variants.includes(key as T));
  if (index < 0) failParse(`no variant of enum ${enumName} found in flattened data`);
  const [key, value] = entries[index];
  entries.splice(index, 1);
  return [key as T, value];
}

/**
 * The variant of an internally tagged enum (`#[serde(tag = "...")]`): the tag field wherever it is; a string
 * names the variant, an unsigned integer is a variant index. The tag entry is removed.
 */
export function takeTag<T extends string>(
  entries: Array<[string, unknown]>,
  tag: string,
  variants: readonly T[],
): T {
  const index = entries.findIndex(([key]) => key === tag);
  if (index < 0) failParse(`missing field \`${tag}\``);
  const [, value] = entries[index];
  entries.splice(index, 1);
  if (typeof value === 'string') {
    if (!variants.includes(value as T)) failParse(unknownVariantText(value, variants));
    return value as T;
  }
  if (typeof value === 'number' && Number.isInteger(value) && value >= 0) {
    if (value >= variants.length)
      failParse(`invalid value: integer \`${value}\`, expected variant index 0 <= i < ${variants.length}`);
    return variants[value];
  }
  failParse(`invalid type: ${typeName(value)}, expected variant identifier`);
}

/** How to read one field of a struct, and whether it may be absent. */
export interface FieldRule<T = unknown> {
  read: (value: unknown) => T;
  /** Absent (or, for `Option`, null) gives this value instead of "missing field". */
  absent?: () => T;
}

/**
 * Reads the fields of a struct from its entries as serde's derived `visit_map` does: each known key in the order
 * the entries come (unknown keys ignored), then the missing ones in declaration order.
 */
export function readFields<R extends Record<string, FieldRule>>(
  entries: ReadonlyArray<[string, unknown]>,
  rules: R,
): { [K in keyof R]: ReturnType<R[K]['read']> } {
  const out: Record<string, unknown> = {};
  for (const [key, value] of entries) {
    // Own rules only: a key such as `toString` is an unknown field, not Object.prototype's.
    const rule = Object.hasOwn(rules, key) ? rules[key] : undefined;
    if (rule) out[key] = rule.read(value);
  }
  for (const [key, rule] of Object.entries(rules)) {
    if (Object.hasOwn(out, key)) continue;
    if (!rule.absent) failParse(`missing field \`${key}\``);
    out[key] = rule.absent();
  }
  return out as { [K in keyof R]: ReturnType<R[K]['read']> };
}

/** `Option<T>`: `null` is `None`; an absent field is `None` too. */
export function optional<T>(read: (value: unknown) => T): FieldRule<T | undefined> {
  return { read: (value) => (value === null ? undefined : read(value)), absent: () => undefined };
}

export function readString(value: unknown): string {
  if (typeof value !== 'string') failParse(`invalid type: ${typeName(value)}, expected a string`);
  return value;
}

export function readBool(value: unknown): boolean {
  if (typeof value !== 'boolean') failParse(`invalid type: ${typeName(value)}, expected a boolean`);
  return value;
}

export function readU64(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value))
    failParse(`invalid type: ${typeName(value)}, expected u64`);
  if (value < 0) failParse(`invalid value: integer \`${value}\`, expected u64`);
  return value;
}

/** near-account-id's `Deserialize`: a string that is a valid account id, else `invalid value: "<id>", <why>`. */
export function readAccountId(value: unknown): string {
  const id = readString(value);
  const reason = accountIdError(id);
  if (reason !== null)
    failParse(`invalid value: ${JSON.stringify(id)}, ${parseAccountErrorText(id, reason)}`);
  return id;
}

const BS58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';

export type Bs58Outcome = { ok: Uint8Array } | { tooSmall: true } | { error: string };

/** bs58-rs's `decode(..).onto(buffer of size)`: the first error in input order, as the crate finds it. */
export function decodeBs58Into(text: string, size: number): Bs58Outcome {
  const out: number[] = [];
  const bytes = Buffer.from(text, 'utf8');
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (byte > 127) return { error: `provided string contained non-ascii character starting at byte ${i}` };
    let carry = BS58_ALPHABET.indexOf(String.fromCharCode(byte));
    if (carry < 0) {
      const character = JSON.stringify(String.fromCharCode(byte)).slice(1, -1).replace(/'/g, "\\'");
      return { error: `provided string contained invalid character '${character}' at byte ${i}` };
    }
    for (let j = 0; j < out.length; j++) {
      carry += out[j] * 58;
      out[j] = carry & 0xff;
      carry >>= 8;
    }
    while (carry > 0) {
      if (out.length >= size) return { tooSmall: true };
      out.push(carry & 0xff);
      carry >>= 8;
    }
  }
  for (const byte of bytes) {
    if (byte !== 0x31) break;
    if (out.length >= size) return { tooSmall: true };
    out.push(0);
  }
  return { ok: new Uint8Array(out.reverse()) };
}

const HASH_EXPECTING = 'base58-encoded 256-bit hash';

/** nearcore's `CryptoHash` visitor: a string, base58 of exactly 32 bytes. */
export function readCryptoHash(value: unknown): Uint8Array {
  if (typeof value !== 'string') failParse(`invalid type: ${typeName(value)}, expected ${HASH_EXPECTING}`);
  const decoded = decodeBs58Into(value, 32);
  if ('error' in decoded) failParse(decoded.error);
  if ('tooSmall' in decoded || decoded.ok.length !== 32)
    failParse(`invalid length ${Buffer.byteLength(value)}, expected ${HASH_EXPECTING}`);
  return decoded.ok;
}

/** Whether `value` is what `CryptoHash` accepts (an untagged enum only needs to know). */
export function isCryptoHash(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const decoded = decodeBs58Into(value, 32);
  return 'ok' in decoded && decoded.ok.length === 32;
}

/** near-crypto's `PublicKey::from_str` error text for `text`, or null when it parses. */
export function publicKeyErrorText(text: string): string | null {
  const colon = text.indexOf(':');
  let length = 32;
  let data = text;
  if (colon >= 0) {
    const keyType = text.slice(0, colon).toLowerCase();
    if (keyType === 'secp256k1') length = 64;
    else if (keyType === 'ml-dsa-65') length = 1952;
    else if (keyType !== 'ed25519') return `unknown key type '${keyType}'`;
    data = text.slice(colon + 1);
  }
  const decoded = decodeBs58Into(data, length);
  if ('error' in decoded) return `invalid key data: ${decoded.error}`;
  const received = 'tooSmall' in decoded ? length + 1 : decoded.ok.length;
  if (received !== length)
    return `invalid key length: expected the input of ${length} bytes, but ${received} was given`;
  return null;
}

/** near-crypto's `PublicKey` `Deserialize`: a string that parses as a key. */
export function readPublicKey(value: unknown): string {
  const text = readString(value);
  const error = publicKeyErrorText(text);
  if (error !== null) failParse(error);
  return text;
}

/**
 * A plain (not flattened) struct read from a JSON array, as serde_json hands an array to the derived
 * `visit_seq`: the fields in declaration order (a missing one without a default is "invalid length"), then no
 * element may be left over.
 */
export function readSeqFields<R extends Record<string, FieldRule>>(
  items: readonly unknown[],
  structName: string,
  rules: R,
  defaults: ReadonlyArray<keyof R> = [],
): { [K in keyof R]: ReturnType<R[K]['read']> } {
  const names = Object.keys(rules);
  const out: Record<string, unknown> = {};
  names.forEach((name, i) => {
    if (i < items.length) out[name] = rules[name].read(items[i]);
    else if (defaults.includes(name)) out[name] = rules[name].absent?.();
    else
      failParse(
        `invalid length ${i}, expected struct ${structName} with ${names.length} element${names.length === 1 ? '' : 's'}`,
      );
  });
  if (items.length > names.length)
    failParse(`invalid length ${items.length}, expected fewer elements in array`);
  return out as { [K in keyof R]: ReturnType<R[K]['read']> };
}

/** A plain struct from params: an object (fields by key), or an array (fields by position). */
export function readStruct<R extends Record<string, FieldRule>>(
  value: unknown,
  structName: string,
  rules: R,
  seqDefaults: ReadonlyArray<keyof R> = [],
): { [K in keyof R]: ReturnType<R[K]['read']> } {
  if (Array.isArray(value)) return readSeqFields(value, structName, rules, seqDefaults);
  return readFields(structEntries(value, structName), rules);
}

/**
 * An externally tagged enum read from a JSON value (serde_json's `Value::deserialize_enum`): a string names a
 * variant without a value, an object of exactly one key names a variant with its value; anything else is
 * "expected string or map". `kinds` says which variants are unit (a value must be null) and which carry one.
 */
export function externallyTagged<T extends string>(
  value: unknown,
  kinds: Readonly<Record<T, 'unit' | 'newtype'>>,
): [T, unknown] {
  const variants = Object.keys(kinds) as T[];
  let name: string;
  let inner: unknown;
  let hasValue = false;
  if (typeof value === 'string') name = value;
  else if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const entries = Object.entries(value);
    if (entries.length !== 1) failParse('invalid value: map, expected map with a single key');
    [name, inner] = entries[0];
    hasValue = true;
  } else failParse(`invalid type: ${typeName(value)}, expected string or map`);
  if (!variants.includes(name as T)) failParse(unknownVariantText(name, variants));
  const kind = kinds[name as T];
  if (kind === 'newtype' && !hasValue) failParse('invalid type: unit variant, expected newtype variant');
  if (kind === 'unit' && hasValue && inner !== null)
    failParse(`invalid type: ${typeName(inner)}, expected unit`);
  return [name as T, inner];
}
