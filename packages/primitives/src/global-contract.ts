/**
 * Global contracts (NEP-591): the identifier a global contract is deployed and used under, the deploy mode,
 * the account's contract field (`AccountContract`) and the distribution receipt that copies the code to every
 * shard, with their borsh and JSON forms as nearcore encodes them.
 *
 * Borsh (core/primitives-core/src/global_contract.rs, account.rs; core/primitives/src/action/mod.rs,
 * receipt.rs):
 * - `GlobalContractIdentifier`: 0 CodeHash([u8; 32]), 1 AccountId(AccountId).
 * - `GlobalContractDeployMode`: 0 CodeHash, 1 AccountId (a unit enum, one byte).
 * - `AccountContract`: 0 None, 1 Local(hash), 2 Global(hash), 3 GlobalByAccount(AccountId).
 * - `GlobalContractDistributionReceipt`: 0 V1 { id, target_shard u64, already_delivered_shards Vec<u64>,
 *   code Vec<u8> }, 1 V2 { the same fields, then nonce u64 } (V2 is what protocol 83 and later create).
 *
 * JSON: the identifier is externally tagged (`{"CodeHash": "<base58>"}` / `{"AccountId": "alice.near"}`),
 * the deploy mode a bare string (`"CodeHash"` / `"AccountId"`).
 */
import { accountIdError } from './account-id.js';
import { readAccountId, writeAccountId } from './account-id-borsh.js';
import type { BorshReader, BorshWriter } from './borsh.js';
import { base64Decode, base64Encode } from './encoding.js';
import { BorshError, InvalidViewError } from './errors.js';
import { cryptoHashToString, parseCryptoHash } from './hash.js';

/** How a global contract is addressed: by the sha256 of its code (immutable) or by the deployer's account
 * (the deployer can update it, and every user follows). */
export type GlobalContractIdentifier =
  | { kind: 'CodeHash'; codeHash: Uint8Array }
  | { kind: 'AccountId'; accountId: string };

export type GlobalContractDeployMode = 'CodeHash' | 'AccountId';

/** What code an account runs. Accounts with `None` or `Local` are stored as AccountV1, the global variants as
 * AccountV2. */
export type AccountContract =
  | { kind: 'None' }
  | { kind: 'Local'; codeHash: Uint8Array }
  | { kind: 'Global'; codeHash: Uint8Array }
  | { kind: 'GlobalByAccount'; accountId: string };

export interface GlobalContractDistribution {
  /** 1 (no nonce) or 2 (with `nonce`). */
  version: 1 | 2;
  id: GlobalContractIdentifier;
  targetShard: bigint;
  alreadyDeliveredShards: bigint[];
  code: Uint8Array;
  /** 0n for V1. */
  nonce: bigint;
}

const DEPLOY_MODES: readonly GlobalContractDeployMode[] = ['CodeHash', 'AccountId'];

/** The bytes an identifier adds to an account's storage usage (nearcore's `GlobalContractIdentifier::len`). */
export function globalContractIdentifierLength(id: GlobalContractIdentifier): number {
  return id.kind === 'CodeHash' ? 32 : id.accountId.length;
}

export function globalContractIdentifierEquals(a: GlobalContractIdentifier, b: GlobalContractIdentifier) {
  if (a.kind === 'CodeHash' && b.kind === 'CodeHash') {
    return a.codeHash.length === b.codeHash.length && a.codeHash.every((x, i) => x === b.codeHash[i]);
  }
  return a.kind === 'AccountId' && b.kind === 'AccountId' && a.accountId === b.accountId;
}

/** The identifier an account's contract points at, or null for no contract or a local one. */
export function accountContractIdentifier(contract: AccountContract): GlobalContractIdentifier | null {
  if (contract.kind === 'Global') return { kind: 'CodeHash', codeHash: contract.codeHash };
  if (contract.kind === 'GlobalByAccount') return { kind: 'AccountId', accountId: contract.accountId };
  return null;
}

/** The account contract that `UseGlobalContract` with this identifier sets. */
export function accountContractFromIdentifier(id: GlobalContractIdentifier): AccountContract {
  return id.kind === 'CodeHash'
    ? { kind: 'Global', codeHash: id.codeHash }
    : { kind: 'GlobalByAccount', accountId: id.accountId };
}

// ---------------------------------------------------------------------------------------------------------
// Borsh

export function writeGlobalContractIdentifier(w: BorshWriter, id: GlobalContractIdentifier): void {
  if (id.kind === 'CodeHash') {
    w.u8(0).fixedBytes(id.codeHash, 32);
  } else if (id.kind === 'AccountId') {
    w.u8(1);
    writeAccountId(w, id.accountId);
  } else {
    throw new BorshError(`unknown GlobalContractIdentifier ${String((id as { kind: unknown }).kind)}`);
  }
}

export function readGlobalContractIdentifier(r: BorshReader): GlobalContractIdentifier {
  const at = r.offset;
  const tag = r.u8();
  if (tag === 0) return { kind: 'CodeHash', codeHash: r.fixedBytes(32) };
  if (tag === 1) return { kind: 'AccountId', accountId: readAccountId(r) };
  throw new BorshError(`invalid GlobalContractIdentifier variant ${tag}`, at);
}

export function writeGlobalContractDeployMode(w: BorshWriter, mode: GlobalContractDeployMode): void {
  const tag = DEPLOY_MODES.indexOf(mode);
  if (tag < 0) throw new BorshError(`unknown GlobalContractDeployMode ${String(mode)}`);
  w.u8(tag);
}

export function readGlobalContractDeployMode(r: BorshReader): GlobalContractDeployMode {
  const at = r.offset;
  const tag = r.u8();
  const mode = DEPLOY_MODES[tag];
  if (mode === undefined) throw new BorshError(`invalid GlobalContractDeployMode variant ${tag}`, at);
  return mode;
}

export function writeAccountContract(w: BorshWriter, contract: AccountContract): void {
  switch (contract.kind) {
    case 'None':
      w.u8(0);
      return;
    case 'Local':
      w.u8(1).fixedBytes(contract.codeHash, 32);
      return;
    case 'Global':
      w.u8(2).fixedBytes(contract.codeHash, 32);
      return;
    case 'GlobalByAccount':
      w.u8(3);
      writeAccountId(w, contract.accountId);
      return;
    default:
      throw new BorshError(`unknown AccountContract ${String((contract as { kind: unknown }).kind)}`);
  }
}

export function readAccountContract(r: BorshReader): AccountContract {
  const at = r.offset;
  const tag = r.u8();
  switch (tag) {
    case 0:
      return { kind: 'None' };
    case 1:
      return { kind: 'Local', codeHash: r.fixedBytes(32) };
    case 2:
      return { kind: 'Global', codeHash: r.fixedBytes(32) };
    case 3:
      return { kind: 'GlobalByAccount', accountId: readAccountId(r) };
    default:
      throw new BorshError(`invalid AccountContract variant ${tag}`, at);
  }
}

export function writeGlobalContractDistribution(w: BorshWriter, d: GlobalContractDistribution): void {
  if (d.version !== 1 && d.version !== 2) {
    throw new BorshError(`unknown GlobalContractDistributionReceipt version ${String(d.version)}`);
  }
  w.u8(d.version - 1);
  writeGlobalContractIdentifier(w, d.id);
  w.u64(d.targetShard);
  w.vec(d.alreadyDeliveredShards, (w, shard) => w.u64(shard));
  w.bytes(d.code);
  if (d.version === 2) w.u64(d.nonce);
}

export function readGlobalContractDistribution(r: BorshReader): GlobalContractDistribution {
  const at = r.offset;
  const tag = r.u8();
  if (tag > 1) throw new BorshError(`invalid GlobalContractDistributionReceipt variant ${tag}`, at);
  const id = readGlobalContractIdentifier(r);
  const targetShard = r.u64();
  const alreadyDeliveredShards = r.vec((r) => r.u64(), 8);
  const code = r.bytes();
  const nonce = tag === 1 ? r.u64() : 0n;
  return { version: tag === 1 ? 2 : 1, id, targetShard, alreadyDeliveredShards, code, nonce };
}

// ---------------------------------------------------------------------------------------------------------
// JSON

export type GlobalContractIdentifierView = { CodeHash: string } | { AccountId: string };

export interface GlobalContractDistributionView {
  id: GlobalContractIdentifierView;
  target_shard: number;
  already_delivered_shards: number[];
  code: string;
  nonce?: number;
}

export function globalContractIdentifierToView(id: GlobalContractIdentifier): GlobalContractIdentifierView {
  return id.kind === 'CodeHash' ? { CodeHash: cryptoHashToString(id.codeHash) } : { AccountId: id.accountId };
}

export function globalContractIdentifierFromView(
  view: unknown,
  path = 'contract_identifier',
): GlobalContractIdentifier {
  if (typeof view !== 'object' || view === null || Array.isArray(view)) {
    throw new InvalidViewError(path, 'expected an object');
  }
  const keys = Object.keys(view);
  if (keys.length !== 1) throw new InvalidViewError(path, 'expected an object with exactly one variant key');
  const name = keys[0];
  const value = (view as Record<string, unknown>)[name];
  if (typeof value !== 'string') throw new InvalidViewError(`${path}.${name}`, 'expected a string');
  if (name === 'CodeHash') {
    try {
      return { kind: 'CodeHash', codeHash: parseCryptoHash(value) };
    } catch {
      throw new InvalidViewError(`${path}.CodeHash`, 'expected a base58 32-byte hash');
    }
  }
  if (name === 'AccountId') {
    const reason = accountIdError(value);
    if (reason !== null) throw new InvalidViewError(`${path}.AccountId`, `invalid account id: ${reason}`);
    return { kind: 'AccountId', accountId: value };
  }
  throw new InvalidViewError(path, `unknown global contract identifier ${JSON.stringify(name)}`);
}

export function globalContractDeployModeFromView(
  view: unknown,
  path = 'deploy_mode',
): GlobalContractDeployMode {
  if (view === 'CodeHash' || view === 'AccountId') return view;
  throw new InvalidViewError(path, 'expected "CodeHash" or "AccountId"');
}

export function globalContractDistributionToView(
  d: GlobalContractDistribution,
): GlobalContractDistributionView {
  const view: GlobalContractDistributionView = {
    id: globalContractIdentifierToView(d.id),
    target_shard: Number(d.targetShard),
    already_delivered_shards: d.alreadyDeliveredShards.map(Number),
    code: base64Encode(d.code),
  };
  if (d.version === 2) view.nonce = Number(d.nonce);
  return view;
}

export function globalContractDistributionFromView(
  view: unknown,
  path = 'GlobalContractDistribution',
): GlobalContractDistribution {
  if (typeof view !== 'object' || view === null || Array.isArray(view)) {
    throw new InvalidViewError(path, 'expected an object');
  }
  const o = view as Record<string, unknown>;
  const u64 = (v: unknown, p: string): bigint => {
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
    throw new InvalidViewError(p, 'expected a non-negative integer');
  };
  if (!Array.isArray(o.already_delivered_shards)) {
    throw new InvalidViewError(`${path}.already_delivered_shards`, 'expected an array');
  }
  let code: Uint8Array;
  try {
    if (typeof o.code !== 'string') throw new Error('not a string');
    code = base64Decode(o.code);
  } catch {
    throw new InvalidViewError(`${path}.code`, 'expected base64');
  }
  const hasNonce = o.nonce !== undefined && o.nonce !== null;
  return {
    version: hasNonce ? 2 : 1,
    id: globalContractIdentifierFromView(o.id, `${path}.id`),
    targetShard: u64(o.target_shard, `${path}.target_shard`),
    alreadyDeliveredShards: o.already_delivered_shards.map((s, i) =>
      u64(s, `${path}.already_delivered_shards[${i}]`),
    ),
    code,
    nonce: hasNonce ? u64(o.nonce, `${path}.nonce`) : 0n,
  };
}
