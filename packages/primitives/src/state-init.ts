/**
 * The initial state of a deterministic account (NEP-616) and the DeterministicStateInit action (action 11).
 *
 * Borsh (core/primitives-core/src/deterministic_account_id.rs, core/primitives/src/action/mod.rs):
 * - `DeterministicAccountStateInit`: 0 V1 { code: GlobalContractIdentifier, data: BTreeMap<Vec<u8>, Vec<u8>> }
 *   (the map as u32 count + entries in ascending key order; borsh refuses any other order when decoding).
 * - `DeterministicStateInitAction { state_init, deposit: u128 }`.
 *
 * JSON: the action (inside delegate actions) is `{"state_init": {"V1": {"code": <identifier>, "data":
 * {<base64 key>: <base64 value>}}}, "deposit": "<yocto>"}`; its `ActionView` flattens it to
 * `{"code": {"hash": <base58>} | {"account_id": <id>}, "data": {...}, "deposit": "<yocto>"}`.
 */
import type { BorshReader, BorshWriter } from './borsh.js';
import { encodeBorsh } from './borsh.js';
import { deterministicAccountIdOfBorsh } from './deterministic-account-id.js';
import { base64Decode, base64Encode, hexEncode } from './encoding.js';
import { BorshError, InvalidViewError } from './errors.js';
import {
  type GlobalContractIdentifier,
  globalContractIdentifierFromView,
  globalContractIdentifierToView,
  readGlobalContractIdentifier,
  writeGlobalContractIdentifier,
} from './global-contract.js';
import { cryptoHashToString, parseCryptoHash } from './hash.js';

/** A key and its value in the initial contract data. */
export type StateInitEntry = readonly [key: Uint8Array, value: Uint8Array];

/** `DeterministicAccountStateInit::V1`: the global contract the account runs and its first contract data,
 * the entries in ascending key order with no key twice (a BTreeMap). */
export interface DeterministicAccountStateInit {
  code: GlobalContractIdentifier;
  data: StateInitEntry[];
}

/** `{"hash": <base58>}` or `{"account_id": <id>}` (nearcore's `GlobalContractIdentifierView`). */
export type StateInitCodeView = { hash: string } | { account_id: string };

export interface DeterministicStateInitView {
  code: StateInitCodeView;
  data: Record<string, string>;
  deposit: string;
}

export interface DeterministicStateInitJson {
  state_init: {
    V1: { code: ReturnType<typeof globalContractIdentifierToView>; data: Record<string, string> };
  };
  deposit: string;
}

/** Byte order of borsh's BTreeMap<Vec<u8>, _> (lexicographic, shorter prefix first). */
export function compareKeys(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return a.length - b.length;
}

/** A state init from entries in any order; a key given twice keeps its last value (as BTreeMap::insert). */
export function stateInit(
  code: GlobalContractIdentifier,
  entries: Iterable<StateInitEntry>,
): DeterministicAccountStateInit {
  const byKey = new Map<string, StateInitEntry>();
  for (const [key, value] of entries) byKey.set(hexEncode(key), [key, value]);
  return { code, data: [...byKey.values()].sort((a, b) => compareKeys(a[0], b[0])) };
}

/** Sets `key` to `value` in place (the entry list stays sorted). */
export function setStateInitEntry(
  init: DeterministicAccountStateInit,
  key: Uint8Array,
  value: Uint8Array,
): void {
  let lo = 0;
  let hi = init.data.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (compareKeys(init.data[mid][0], key) < 0) lo = mid + 1;
    else hi = mid;
  }
  if (lo < init.data.length && compareKeys(init.data[lo][0], key) === 0) init.data[lo] = [key, value];
  else init.data.splice(lo, 0, [key, value]);
}

export function writeStateInit(w: BorshWriter, init: DeterministicAccountStateInit): void {
  w.u8(0);
  writeGlobalContractIdentifier(w, init.code);
  w.u32(init.data.length);
  for (const [key, value] of init.data) w.bytes(key).bytes(value);
}

export function readStateInit(r: BorshReader): DeterministicAccountStateInit {
  const at = r.offset;
  const tag = r.u8();
  if (tag !== 0) throw new BorshError(`invalid DeterministicAccountStateInit variant ${tag}`, at);
  const code = readGlobalContractIdentifier(r);
  const count = r.u32();
  const data: StateInitEntry[] = [];
  for (let i = 0; i < count; i++) {
    const keyAt = r.offset;
    const key = r.bytes();
    const value = r.bytes();
    if (data.length > 0 && compareKeys(data[data.length - 1][0], key) >= 0)
      throw new BorshError('keys were not serialized in ascending order', keyAt);
    data.push([key, value]);
  }
  return { code, data };
}

export function encodeStateInit(init: DeterministicAccountStateInit): Uint8Array {
  return encodeBorsh((w) => writeStateInit(w, init));
}

/** The `0s…` account id the state init lives at (nearcore `derive_near_deterministic_account_id`). */
export function deterministicAccountId(init: DeterministicAccountStateInit): string {
  return deterministicAccountIdOfBorsh(encodeStateInit(init));
}

/** Bytes of all keys and values: what the per-byte fee of the action is charged on (the host functions
 * charge the same bytes as each entry is added). */
export function stateInitDataBytes(init: DeterministicAccountStateInit): bigint {
  let n = 0n;
  for (const [key, value] of init.data) n += BigInt(key.length + value.length);
  return n;
}

function dataToJson(init: DeterministicAccountStateInit): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of init.data) out[base64Encode(key)] = base64Encode(value);
  return out;
}

function dataFromJson(view: unknown, path: string): StateInitEntry[] {
  if (view === undefined || view === null) return [];
  if (typeof view !== 'object' || Array.isArray(view)) throw new InvalidViewError(path, 'expected an object');
  const entries: StateInitEntry[] = [];
  for (const [k, v] of Object.entries(view as Record<string, unknown>)) {
    if (typeof v !== 'string') throw new InvalidViewError(`${path}.${k}`, 'expected a base64 string');
    try {
      entries.push([base64Decode(k), base64Decode(v)]);
    } catch {
      throw new InvalidViewError(`${path}.${k}`, 'expected base64');
    }
  }
  return entries;
}

export function stateInitActionToView(
  init: DeterministicAccountStateInit,
  deposit: bigint,
): DeterministicStateInitView {
  const code: StateInitCodeView =
    init.code.kind === 'CodeHash'
      ? { hash: cryptoHashToString(init.code.codeHash) }
      : { account_id: init.code.accountId };
  return { code, data: dataToJson(init), deposit: deposit.toString() };
}

export function stateInitActionFromView(
  view: Record<string, unknown>,
  path: string,
): { stateInit: DeterministicAccountStateInit; deposit: bigint } {
  const code = view.code as Record<string, unknown> | undefined;
  let id: GlobalContractIdentifier;
  if (code && typeof code.hash === 'string') {
    try {
      id = { kind: 'CodeHash', codeHash: parseCryptoHash(code.hash) };
    } catch {
      throw new InvalidViewError(`${path}.code.hash`, 'expected a base58 32-byte hash');
    }
  } else if (code && typeof code.account_id === 'string') {
    id = { kind: 'AccountId', accountId: code.account_id };
  } else {
    throw new InvalidViewError(`${path}.code`, 'expected {"hash": …} or {"account_id": …}');
  }
  return {
    stateInit: stateInit(id, dataFromJson(view.data, `${path}.data`)),
    deposit: depositOf(view.deposit, `${path}.deposit`),
  };
}

export function stateInitActionToJson(
  init: DeterministicAccountStateInit,
  deposit: bigint,
): DeterministicStateInitJson {
  return {
    state_init: { V1: { code: globalContractIdentifierToView(init.code), data: dataToJson(init) } },
    deposit: deposit.toString(),
  };
}

export function stateInitActionFromJson(
  json: Record<string, unknown>,
  path: string,
): { stateInit: DeterministicAccountStateInit; deposit: bigint } {
  const si = json.state_init as Record<string, unknown> | undefined;
  const v1 = si?.V1 as Record<string, unknown> | undefined;
  if (!v1 || typeof v1 !== 'object') throw new InvalidViewError(`${path}.state_init`, 'expected {"V1": …}');
  const code = globalContractIdentifierFromView(v1.code, `${path}.state_init.V1.code`);
  return {
    stateInit: stateInit(code, dataFromJson(v1.data, `${path}.state_init.V1.data`)),
    deposit: depositOf(json.deposit, `${path}.deposit`),
  };
}

function depositOf(v: unknown, path: string): bigint {
  if (typeof v === 'string' && /^\d+$/.test(v)) {
    const n = BigInt(v);
    if (n < 2n ** 128n) return n;
  }
  throw new InvalidViewError(path, 'expected a u128 decimal string');
}
