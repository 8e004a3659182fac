/**
 * The recorded state changes of a block (chain.stateChanges) as nearcore's `changes` RPC reports them.
 *
 * nearcore stores a block's changes under `block_hash ‖ trie_key`, one row per key holding that key's changes
 * in the order they happened (`RawStateChangesWithTrieKey`), and answers by reading those rows back:
 * - a typed query (`StateChangesRequest`) walks the requested accounts (or keys) in request order and, for
 *   each, the matching rows in key order (an exact key, or every key under a prefix), emitting every change of
 *   a row with its own cause;
 * - the block-level query lists one `*_touched` entry per changed key, in key order (no merging: two changed
 *   access keys of one account give two `access_key_touched` entries).
 * Only the per-account columns (account, contract code, access key, contract data) are reported.
 */
import {
  accessKeyToView,
  base64Encode,
  decodeAccessKey,
  latin1String,
  type PublicKey,
  publicKeyHandleToString,
} from '@shadebox/primitives';
import { accountToView, decodeAccount } from '../state/account.js';
import { type DecodedStateKey, decodeStateKey } from '../state/decode-state-key.js';
import {
  accessKeyKey,
  accessKeyPrefix,
  accountKey,
  contractCodeKey,
  contractDataPrefix,
} from '../state/state-keys.js';
import type { StateChangeCause } from '../state/state-update.js';

/** One stored change, as chain.stateChanges returns it (key and value base64). */
export interface StoredStateChange {
  shard: number;
  key: string;
  value: string | null;
  cause: StateChangeCause;
}

/** nearcore's `StateChangesRequestView`, with account ids validated and keys decoded. */
export type StateChangesRequest =
  | { changesType: 'account_changes'; accountIds: string[] }
  | { changesType: 'single_access_key_changes'; keys: Array<{ accountId: string; publicKey: PublicKey }> }
  | { changesType: 'all_access_key_changes'; accountIds: string[] }
  | { changesType: 'contract_code_changes'; accountIds: string[] }
  | { changesType: 'data_changes'; accountIds: string[]; keyPrefix: Uint8Array };

export interface StateChangeWithCauseView {
  cause: StateChangeCause;
  type: string;
  change: Record<string, unknown>;
}

export interface StateChangeKindView {
  type: 'account_touched' | 'access_key_touched' | 'data_touched' | 'contract_code_touched';
  account_id: string;
}

interface KeyRow {
  decoded: DecodedStateKey;
  changes: Array<{ value: string | null; cause: StateChangeCause }>;
}

/** A block's changes grouped per key, keys in byte order (latin1 strings compare as their bytes do). */
export class BlockStateChanges {
  private readonly rows = new Map<string, KeyRow>();
  private readonly sorted: string[];

  constructor(stored: readonly StoredStateChange[]) {
    for (const change of stored) {
      const bytes = Buffer.from(change.key, 'base64');
      const decoded = decodeStateKey(new Uint8Array(bytes));
      if (!decoded) continue;
      const k = bytes.toString('latin1');
      let row = this.rows.get(k);
      if (!row) {
        row = { decoded, changes: [] };
        this.rows.set(k, row);
      }
      row.changes.push({ value: change.value, cause: change.cause });
    }
    this.sorted = [...this.rows.keys()].sort();
  }

  /** nearcore's `get_state_changes` for one request. */
  byType(request: StateChangesRequest): StateChangeWithCauseView[] {
    const out: StateChangeWithCauseView[] = [];
    const emit = (k: string) => {
      const row = this.rows.get(k)!;
      for (const change of row.changes) {
        const view = changeView(row.decoded, change.value, change.cause);
        if (view) out.push(view);
      }
    };
    const exact = (key: Uint8Array) => {
      const k = latin1String(key);
      if (this.rows.has(k)) emit(k);
    };
    const prefixed = (prefix: Uint8Array) => {
      for (const k of this.withPrefix(latin1String(prefix))) emit(k);
    };
    switch (request.changesType) {
      case 'account_changes':
        for (const id of request.accountIds) exact(accountKey(id));
        break;
      case 'single_access_key_changes':
        // The key's own row, then its gas-key nonces (their keys extend the access key's).
        for (const { accountId, publicKey } of request.keys) prefixed(accessKeyKey(accountId, publicKey));
        break;
      case 'all_access_key_changes':
        for (const id of request.accountIds) prefixed(accessKeyPrefix(id));
        break;
      case 'contract_code_changes':
        for (const id of request.accountIds) exact(contractCodeKey(id));
        break;
      case 'data_changes':
        for (const id of request.accountIds) {
          const base = contractDataPrefix(id);
          const prefix = new Uint8Array(base.length + request.keyPrefix.length);
          prefix.set(base);
          prefix.set(request.keyPrefix, base.length);
          prefixed(prefix);
        }
        break;
    }
    return out;
  }

  /** Every change of the block, key by key in key order and each key's in the order they happened: nearcore's
   * `get_state_changes_with_cause_in_block` (what the indexer's `state_changes` are made of). */
  all(): StateChangeWithCauseView[] {
    const out: StateChangeWithCauseView[] = [];
    for (const k of this.sorted) {
      const row = this.rows.get(k)!;
      for (const change of row.changes) {
        const view = changeView(row.decoded, change.value, change.cause);
        if (view) out.push(view);
      }
    }
    return out;
  }

  /** nearcore's `get_state_changes_in_block`: one entry per changed key, in key order. */
  kinds(): StateChangeKindView[] {
    return this.sorted.map((k) => {
      const { decoded } = this.rows.get(k)!;
      return { type: TOUCHED[decoded.column], account_id: decoded.accountId };
    });
  }

  private *withPrefix(prefix: string): Generator<string> {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.sorted[mid] < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length && this.sorted[i].startsWith(prefix); i++) yield this.sorted[i];
  }
}

const TOUCHED = {
  account: 'account_touched',
  contract_code: 'contract_code_touched',
  access_key: 'access_key_touched',
  gas_key_nonce: 'access_key_touched',
  contract_data: 'data_touched',
} as const;

/** nearcore's `StateChangeWithCauseView`: `{cause, type, change}` for one change of one key. */
function changeView(
  key: DecodedStateKey,
  valueB64: string | null,
  cause: StateChangeCause,
): StateChangeWithCauseView | null {
  const account_id = key.accountId;
  const value = valueB64 === null ? null : new Uint8Array(Buffer.from(valueB64, 'base64'));
  switch (key.column) {
    case 'account':
      return value
        ? { cause, type: 'account_update', change: { account_id, ...accountToView(decodeAccount(value)) } }
        : { cause, type: 'account_deletion', change: { account_id } };
    case 'access_key': {
      const public_key = publicKeyHandleToString(key.publicKey);
      return value
        ? {
            cause,
            type: 'access_key_update',
            change: { account_id, public_key, access_key: accessKeyToView(decodeAccessKey(value)) },
          }
        : { cause, type: 'access_key_deletion', change: { account_id, public_key } };
    }
    case 'gas_key_nonce': {
      // nearcore reports a nonce's writes (`GasKeyNonceUpdate`); removing them with the key shows only as
      // the key's deletion.
      if (!value) return null;
      const nonce = Buffer.from(value.buffer, value.byteOffset, value.byteLength).readBigUInt64LE(0);
      return {
        cause,
        type: 'gas_key_nonce_update',
        change: {
          account_id,
          public_key: publicKeyHandleToString(key.publicKey),
          index: key.index,
          nonce: Number(nonce),
        },
      };
    }
    case 'contract_data': {
      const key_base64 = base64Encode(key.dataKey);
      return value
        ? { cause, type: 'data_update', change: { account_id, key_base64, value_base64: valueB64 } }
        : { cause, type: 'data_deletion', change: { account_id, key_base64 } };
    }
    case 'contract_code':
      return value
        ? { cause, type: 'contract_code_update', change: { account_id, code_base64: valueB64 } }
        : { cause, type: 'contract_code_deletion', change: { account_id } };
  }
}
