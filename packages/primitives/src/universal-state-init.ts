/**
 * The initial state of a universal (`0u…`) account and the UniversalStateInit action (action 15, NEP-655).
 *
 * Borsh (nearcore core/primitives/src/universal_state_init.rs, core/primitives/src/action/mod.rs):
 * - `UniversalStateInit`: 0 V1 { code: Option<GlobalContractIdentifier>, data: BTreeMap<Vec<u8>, Vec<u8>>,
 *   access_keys: BTreeSet<PublicKeyHandle> }.
 * - `UniversalStateInitAction { state_init: RawStateInit, deposit: u128 }`, where `RawStateInit` is the borsh
 *   bytes of a `UniversalStateInit` as a `Vec<u8>` (u32 length + bytes). The action carries the bytes, not the
 *   typed value: the account id is SHA3-256 over exactly these bytes (universal-account-id.ts).
 *
 * Decoding is as lenient as borsh's default: map keys and set members in any order are re-sorted and a repeated
 * map key keeps its last value; only malformed or trailing bytes fail. Such a non-canonical encoding decodes to
 * the same value but names a different account. `encodeUniversalStateInit` always writes the canonical form.
 *
 * JSON (the action and its `ActionView` alike): `{"state_init": "<base64 of the raw bytes>", "deposit": "<yocto>"}`.
 */
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import { hexEncode } from './encoding.js';
import {
  type GlobalContractIdentifier,
  readGlobalContractIdentifier,
  writeGlobalContractIdentifier,
} from './global-contract.js';
import {
  encodePublicKeyHandle,
  type PublicKeyHandle,
  readPublicKeyHandle,
  writePublicKeyHandle,
} from './public-key-handle.js';
import { compareKeys, type StateInitEntry } from './state-init.js';
import { universalAccountIdOfRaw } from './universal-account-id.js';

/** `UniversalStateInit::V1`: entries in ascending key order, keys in ascending handle order. */
export interface UniversalStateInit {
  /** The global contract the account runs, or null for a key-only account. */
  code: GlobalContractIdentifier | null;
  data: StateInitEntry[];
  /** Full-access keys, as the handles they are stored under. */
  accessKeys: PublicKeyHandle[];
}

/** What the action is priced on (`UniversalStateInitCounts`): the payload's own length, and the entries and
 * keys it decodes to (none when it does not decode). */
export interface UniversalStateInitCounts {
  numBytes: number;
  numEntries: number;
  numKeys: number;
}

/** A state init from entries and keys in any order, written canonically (repeats collapse as in a BTree). */
export function universalStateInit(
  code: GlobalContractIdentifier | null,
  entries: Iterable<StateInitEntry>,
  accessKeys: Iterable<PublicKeyHandle>,
): UniversalStateInit {
  const byKey = new Map<string, StateInitEntry>();
  for (const [key, value] of entries) byKey.set(hexEncode(key), [key, value]);
  const byHandle = new Map<string, [Uint8Array, PublicKeyHandle]>();
  for (const handle of accessKeys) {
    const bytes = encodePublicKeyHandle(handle);
    byHandle.set(hexEncode(bytes), [bytes, handle]);
  }
  return {
    code,
    data: [...byKey.values()].sort((a, b) => compareKeys(a[0], b[0])),
    accessKeys: [...byHandle.values()].sort((a, b) => compareKeys(a[0], b[0])).map(([, h]) => h),
  };
}

export function writeUniversalStateInit(w: BorshWriter, init: UniversalStateInit): void {
  w.u8(0);
  w.option(init.code, writeGlobalContractIdentifier);
  w.u32(init.data.length);
  for (const [key, value] of init.data) w.bytes(key).bytes(value);
  w.u32(init.accessKeys.length);
  for (const handle of init.accessKeys) writePublicKeyHandle(w, handle);
}

function readUniversalStateInit(r: BorshReader): UniversalStateInit {
  const tag = r.enumTag('UniversalStateInit', 1);
  void tag;
  const code = r.option(readGlobalContractIdentifier);
  const entries: StateInitEntry[] = [];
  const dataCount = r.u32();
  for (let i = 0; i < dataCount; i++) entries.push([r.bytes(), r.bytes()]);
  const handles: PublicKeyHandle[] = [];
  const keyCount = r.u32();
  for (let i = 0; i < keyCount; i++) handles.push(readPublicKeyHandle(r));
  // Borsh's BTreeMap/BTreeSet decoding sorts and collapses repeats; so does `universalStateInit`.
  return universalStateInit(code, entries, handles);
}

/** The canonical borsh of a state init: the bytes to put in the action and to derive its id from. */
export function encodeUniversalStateInit(init: UniversalStateInit): Uint8Array {
  return encodeBorsh((w) => writeUniversalStateInit(w, init));
}

/** `UniversalStateInit::from_raw`: throws a BorshError on malformed or trailing bytes. */
export function decodeUniversalStateInit(raw: Uint8Array): UniversalStateInit {
  return decodeBorsh(raw, readUniversalStateInit);
}

/** The decoded state init, or null when the bytes are not one (`MalformedUniversalStateInit`). */
export function tryDecodeUniversalStateInit(raw: Uint8Array): UniversalStateInit | null {
  try {
    return decodeUniversalStateInit(raw);
  } catch {
    return null;
  }
}

/** `state_init_counts`. */
export function universalStateInitCounts(raw: Uint8Array): UniversalStateInitCounts {
  const init = tryDecodeUniversalStateInit(raw);
  return { numBytes: raw.length, numEntries: init?.data.length ?? 0, numKeys: init?.accessKeys.length ?? 0 };
}

/** The `0u…` account a typed state init creates (its canonical bytes hashed). */
export function universalAccountId(init: UniversalStateInit): string {
  return universalAccountIdOfRaw(encodeUniversalStateInit(init));
}
