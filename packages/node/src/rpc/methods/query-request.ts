/**
 * The params of `query` in its struct form (`RpcQueryRequest`), read as nearcore's serde reads them: the block
 * reference, the request type and its fields. Used by `query` (methods/query.ts) and by a view worker that
 * answers a `call_function` body itself (rpc/view-body-job.ts), so both read a request the same way.
 */
import {
  base64Decode,
  type GlobalContractIdentifier,
  type PublicKey,
  type PublicKeyHandle,
  parsePublicKey,
  parsePublicKeyHandle,
} from '@shadebox/primitives';
import { base64ErrorText } from '../base64-error.js';
import { type BlockReference, takeBlockReference } from '../block-reference.js';
import { failParse } from '../params.js';
import {
  optional,
  readAccountId,
  readBool,
  readCryptoHash,
  readFields,
  readPublicKey,
  readString,
  structEntries,
  takeTag,
} from '../serde.js';

const REQUEST_TYPES = [
  'view_account',
  'view_code',
  'view_state',
  'view_access_key',
  'view_access_key_list',
  'view_gas_key_nonces',
  'call_function',
  'view_global_contract_code',
  'view_global_contract_code_by_account_id',
] as const;
export type RequestType = (typeof REQUEST_TYPES)[number];

export interface QueryFields {
  publicKey?: PublicKey;
  prefix?: Uint8Array;
  page?: { afterKey?: Uint8Array; limit?: number; includeProof: boolean };
  /** view_access_key_list's page (2.14): keys after this one, at most `limit`. */
  keyPage?: { afterKey?: PublicKeyHandle; limit?: number };
  methodName?: string;
  args?: Uint8Array;
  globalContract?: GlobalContractIdentifier;
}

export interface ParsedQuery {
  ref: BlockReference;
  requestType: RequestType;
  accountId: string;
  fields: QueryFields;
}

const accountIdField = { read: readAccountId };
const base64Field = { read: readBase64 };

/**
 * `RpcQueryRequest { #[serde(flatten)] block_reference, #[serde(flatten)] request: QueryRequest }`, read as serde
 * does (serde.ts): the block reference takes its key first, then `request_type` picks the variant of the
 * internally tagged `QueryRequest`, whose fields are read in key order.
 */
export function parseQueryRequest(params: unknown, structName = 'RpcQueryRequest'): ParsedQuery {
  const entries = structEntries(params, structName);
  const ref = takeBlockReference(entries);
  const requestType = takeTag(entries, 'request_type', REQUEST_TYPES);
  switch (requestType) {
    case 'view_account':
    case 'view_code': {
      const f = readFields(entries, { account_id: accountIdField });
      return { ref, requestType, accountId: f.account_id, fields: {} };
    }
    case 'view_access_key_list': {
      const f = readFields(entries, {
        account_id: accountIdField,
        after_key: optional(readPublicKeyHandle),
        limit: optional(readLimit),
      });
      return {
        ref,
        requestType,
        accountId: f.account_id,
        fields: { keyPage: { afterKey: f.after_key, limit: f.limit } },
      };
    }
    case 'view_access_key':
    case 'view_gas_key_nonces': {
      const f = readFields(entries, { account_id: accountIdField, public_key: { read: readPublicKey } });
      return {
        ref,
        requestType,
        accountId: f.account_id,
        fields: { publicKey: parsePublicKey(f.public_key) },
      };
    }
    case 'view_state': {
      const f = readFields(entries, {
        account_id: accountIdField,
        prefix_base64: base64Field,
        include_proof: { read: readBool, absent: () => false },
        after_key_base64: optional(readBase64),
        limit: optional(readLimit),
      });
      const prefix = f.prefix_base64;
      const afterKey = f.after_key_base64;
      // An after_key outside the prefix parses; the viewer refuses it (methods/query.ts).
      return {
        ref,
        requestType,
        accountId: f.account_id,
        fields: { prefix, page: { afterKey, limit: f.limit, includeProof: f.include_proof } },
      };
    }
    case 'call_function': {
      const f = readFields(entries, {
        account_id: accountIdField,
        method_name: { read: readString },
        args_base64: base64Field,
      });
      return {
        ref,
        requestType,
        accountId: f.account_id,
        fields: { methodName: f.method_name, args: f.args_base64 },
      };
    }
    case 'view_global_contract_code': {
      const f = readFields(entries, { code_hash: { read: readCryptoHash } });
      return {
        ref,
        requestType,
        accountId: '',
        fields: { globalContract: { kind: 'CodeHash', codeHash: f.code_hash } },
      };
    }
    case 'view_global_contract_code_by_account_id': {
      const f = readFields(entries, { account_id: accountIdField });
      return {
        ref,
        requestType,
        accountId: f.account_id,
        fields: { globalContract: { kind: 'AccountId', accountId: f.account_id } },
      };
    }
  }
}

/** `limit` of view_state and view_access_key_list: serde's `NonZeroU32`. */
export function readLimit(value: unknown): number {
  const expected = 'expected a nonzero u32';
  if (typeof value === 'number' && Number.isInteger(value)) {
    if (value < 1 || value > 0xffffffff) failParse(`invalid value: integer \`${value}\`, ${expected}`);
    return value;
  }
  failParse(`invalid type: ${serdeTypeName(value)}, ${expected}`);
}

/** A `PublicKeyHandle` (`ed25519:…`, `secp256k1:…` or `ml-dsa-65-hash:…`), as near-crypto's `FromStr`. */
function readPublicKeyHandle(value: unknown): PublicKeyHandle {
  const text = readString(value);
  try {
    return parsePublicKeyHandle(text);
  } catch (err) {
    failParse(err instanceof Error ? err.message : String(err));
  }
}

function serdeTypeName(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'sequence';
  if (typeof v === 'object') return 'map';
  if (typeof v === 'string') return `string ${JSON.stringify(v)}`;
  if (typeof v === 'number') return `floating point \`${v}\``;
  if (typeof v === 'boolean') return `boolean \`${v}\``;
  return typeof v;
}

/** A base64 blob (`StoreKey`, `FunctionArgs`): the `base64` crate's error text. */
export function readBase64(value: unknown): Uint8Array {
  const text = readString(value);
  try {
    return base64Decode(text);
  } catch {
    failParse(base64ErrorText(text));
  }
}
