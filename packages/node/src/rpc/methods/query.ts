/**
 * `query`: accounts, access keys, contract code and state as of a block (`request_type` + a block reference),
 * and the legacy positional form `["account/alice.near", ""]`.
 *
 * As nearcore does, a missing access key and a failed view call are answered with HTTP 200 and
 * `result.error` (a string), not as errors.
 */
import {
  accessKeyToView,
  accountIdError,
  base58Decode,
  base58Encode,
  base64Decode,
  base64Encode,
  decodeAccessKey,
  isValidAccountId,
  parsePublicKey,
  publicKeyToString,
  sha256,
} from '@shadebox/primitives';
import { accountToView, decodeAccount } from '../../state/account.js';
import {
  accessKeyKey,
  accountKey,
  contractCodeKey,
  contractDataPrefix,
  keySuffix,
} from '../../state/state-keys.js';
import { listAccessKeys } from '../../state/typed-state.js';
import { type BlockReference, notFoundText, parseBlockReference, resolveBlock } from '../block-reference.js';
import { failParse, objectParams, type Params, requireString, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, parseError } from '../rpc-error.js';
import { viewCall } from './view-call.js';

const REQUEST_TYPES = [
  'view_account',
  'view_code',
  'view_state',
  'view_access_key',
  'view_access_key_list',
  'call_function',
] as const;
type RequestType = (typeof REQUEST_TYPES)[number];

/** `trie_viewer_state_size_limit`: accounts with more contract state than this cannot be viewed whole. */
export const STATE_VIEW_SIZE_LIMIT = 50_000n;

export function query(ctx: RpcContext, params: unknown) {
  const request = Array.isArray(params) ? legacyQuery(params) : objectParams(params);
  // nearcore's RpcQueryRequest flattens the block reference first, then the request.
  const ref = parseBlockReference(request)!;
  const requestType = requireString(request, 'request_type');
  if (!REQUEST_TYPES.includes(requestType as RequestType)) {
    failParse(
      `unknown variant \`${requestType}\`, expected one of ${REQUEST_TYPES.map((t) => `\`${t}\``).join(', ')}`,
    );
  }
  const accountId = requireString(request, 'account_id');
  const fields = readFields(requestType as RequestType, request);
  const block = resolveBlock(ctx.chain, ref);
  if (!block) throw garbageCollectedBlock(ctx, ref) ?? unknownBlock(ref);
  const at = { block_height: block.height, block_hash: block.hash };
  if (!isValidAccountId(accountId)) {
    throw handlerError(
      'INVALID_ACCOUNT',
      { requested_account_id: accountId, ...at },
      `Account ID ${accountId} is invalid`,
    );
  }
  const state = ctx.chain.stateAt(block.height);
  const accountBytes = ctx.chain.stateValue(accountKey(accountId), block.height);

  switch (requestType as RequestType) {
    case 'view_account': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      return { ...accountToView(decodeAccount(accountBytes)), ...at };
    }
    case 'view_code': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      const code = state.get(contractCodeKey(accountId));
      if (!code) {
        throw handlerError(
          'NO_CONTRACT_CODE',
          { contract_account_id: accountId, ...at },
          `Contract code for contract ID #${accountId} has never been observed on the node`,
        );
      }
      return { code_base64: base64Encode(code), hash: base58Encode(sha256(code)), ...at };
    }
    case 'view_access_key': {
      const publicKey = fields.publicKey!;
      const bytes = state.get(accessKeyKey(accountId, publicKey));
      if (!bytes) {
        return {
          error: `access key ${publicKeyToString(publicKey)} does not exist while viewing`,
          logs: [],
          ...at,
        };
      }
      return { ...accessKeyToView(decodeAccessKey(bytes)), ...at };
    }
    case 'view_access_key_list': {
      const keys = listAccessKeys(state, accountId).map(({ publicKey, accessKey }) => ({
        public_key: publicKeyToString(publicKey),
        access_key: accessKeyToView(accessKey),
      }));
      return { keys, ...at };
    }
    case 'view_state': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      const account = decodeAccount(accountBytes);
      const codeLength = BigInt(state.get(contractCodeKey(accountId))?.length ?? 0);
      const page = fields.page!;
      // A paged read is bounded by its limit; only a whole-state read is refused for size.
      if (page.limit === undefined && account.storageUsage - codeLength > STATE_VIEW_SIZE_LIMIT) {
        throw handlerError(
          'TOO_LARGE_CONTRACT_STATE',
          { contract_account_id: accountId, ...at },
          `State of contract ${accountId} is too large to be viewed`,
        );
      }
      const base = contractDataPrefix(accountId);
      const prefix = new Uint8Array([...base, ...fields.prefix!]);
      let entries = state.scan(prefix).map(({ key, value }) => ({ key: keySuffix(key, base), value }));
      if (page.afterKey) {
        const after = Buffer.from(page.afterKey);
        entries = entries.filter(({ key }) => Buffer.compare(Buffer.from(key), after) > 0);
      }
      const more = page.limit !== undefined && entries.length > page.limit;
      if (page.limit !== undefined) entries = entries.slice(0, page.limit);
      const values = entries.map(({ key, value }) => ({
        key: base64Encode(key),
        value: base64Encode(value),
      }));
      return {
        values,
        // This node keeps no Merkle trie, so it has no nodes to prove with (docs/deviations.md).
        ...(page.includeProof ? { proof: [] } : {}),
        ...(more ? { last_key: values[values.length - 1].key } : {}),
        ...at,
      };
    }
    case 'call_function': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      const result = viewCall(ctx.chain, block, accountId, accountBytes, fields.methodName!, fields.args!);
      return { ...result, ...at };
    }
  }
}

function readFields(type: RequestType, p: Params) {
  switch (type) {
    case 'view_access_key':
      return { publicKey: parseKey(requireString(p, 'public_key')) };
    case 'view_state': {
      const prefix = decodeBase64Field(requireString(p, 'prefix_base64'), 'prefix_base64');
      return { prefix, page: readPage(p, prefix) };
    }
    case 'call_function': {
      const methodName = requireString(p, 'method_name');
      return { methodName, args: decodeBase64Field(requireString(p, 'args_base64'), 'args_base64') };
    }
    default:
      return {};
  }
}

/** view_state paging: `after_key_base64` (exclusive, must start with the prefix), `limit` ≥ 1, and
 * `include_proof`. */
function readPage(p: Params, prefix: Uint8Array) {
  let afterKey: Uint8Array | undefined;
  if (p.after_key_base64 !== undefined && p.after_key_base64 !== null) {
    afterKey = decodeBase64Field(requireString(p, 'after_key_base64'), 'after_key_base64');
    if (!Buffer.from(afterKey).subarray(0, prefix.length).equals(Buffer.from(prefix))) {
      failParse('after_key_base64 must start with prefix_base64');
    }
  }
  let limit: number | undefined;
  if (p.limit !== undefined && p.limit !== null) {
    if (typeof p.limit !== 'number' || !Number.isInteger(p.limit) || p.limit < 1 || p.limit > 0xffffffff) {
      failParse(`invalid value: ${JSON.stringify(p.limit)}, expected a nonzero u32 for limit`);
    }
    limit = p.limit;
  }
  const includeProof = p.include_proof === true;
  return { afterKey, limit, includeProof };
}

function parseKey(text: string) {
  try {
    return parsePublicKey(text);
  } catch (e) {
    failParse(`invalid value: ${typeName(text)}: ${(e as Error).message}`);
  }
}

function decodeBase64Field(text: string, field: string): Uint8Array {
  try {
    return base64Decode(text);
  } catch {
    failParse(`invalid value: ${typeName(text)} for \`${field}\`, expected base64`);
  }
}

/** nearcore's `process_query_response` data for UNKNOWN_BLOCK: a height gets the " \n Cause: Unknown" suffix, a
 * hash does not. */
function unknownBlock(ref: BlockReference) {
  const text =
    'block_id' in ref
      ? typeof ref.block_id === 'number'
        ? notFoundText(ref.block_id, 'BLOCK HEADER')
        : `DB Not Found Error: BLOCK HEADER: ${ref.block_id}`
      : 'DB Not Found Error: BLOCK HEADER \n Cause: Unknown';
  return handlerError('UNKNOWN_BLOCK', { block_reference: ref }, text);
}

/** nearcore's GARBAGE_COLLECTED_BLOCK: the header of the block is known (shadebox keeps a header index of
 * collected blocks, chain/garbage-collector.ts) but its data is gone on this regular node. */
function garbageCollectedBlock(ctx: RpcContext, ref: BlockReference) {
  if (!('block_id' in ref)) return undefined;
  const at = ctx.chain.collectedHeader(ref.block_id);
  if (!at) return undefined;
  return handlerError(
    'GARBAGE_COLLECTED_BLOCK',
    at,
    `The data for block #${at.block_height} is garbage collected on this node, use an archival node to fetch historical data`,
  );
}

function unknownAccount(accountId: string, at: { block_height: number; block_hash: string }) {
  return handlerError(
    'UNKNOWN_ACCOUNT',
    { requested_account_id: accountId, ...at },
    `account ${accountId} does not exist while viewing`,
  );
}

/**
 * The legacy form `[path, data]` (nearcore's `parse_path_data`), at finality optimistic. Its errors are bare
 * parse errors, without the "Failed parsing args: " prefix. Any other array is read as named params (and fails).
 */
function legacyQuery(params: unknown[]): Params {
  if (params.length !== 2) return objectParams(params);
  for (const item of params) {
    if (typeof item !== 'string') failParse(`invalid type: ${typeName(item)}, expected a string`);
  }
  const [path, data] = params as [string, string];
  const parts = path.split('/');
  // Rust's `splitn(3, '/')`: the third part keeps any further slashes.
  const [command, accountId, extra] = [
    parts[0],
    parts[1],
    parts.length > 2 ? parts.slice(2).join('/') : undefined,
  ];
  if (accountId === undefined) throw parseError('Not enough query parameters provided');
  const reason = accountIdError(accountId);
  if (reason !== null) throw parseError(parseAccountErrorText(accountId, reason));
  const base = { finality: 'optimistic', account_id: accountId } as Params;
  const b58 = () => {
    let bytes: Uint8Array;
    try {
      bytes = data === '' ? new Uint8Array() : base58Decode(data);
    } catch {
      throw parseError('provided string contained invalid character');
    }
    if (bytes.length > Math.max(0, 10 * 1024 - path.length)) throw parseError('Query data size is too large');
    return base64Encode(bytes);
  };
  switch (command) {
    case 'account':
      return { ...base, request_type: 'view_account' };
    case 'code':
      return { ...base, request_type: 'view_code' };
    case 'contract':
      return { ...base, request_type: 'view_state', prefix_base64: b58() };
    case 'access_key':
      if (extra === undefined) return { ...base, request_type: 'view_access_key_list' };
      try {
        parsePublicKey(extra);
      } catch {
        throw parseError('Invalid public key');
      }
      return { ...base, request_type: 'view_access_key', public_key: extra };
    case 'call':
      if (extra === undefined) throw parseError('Method name is missing');
      return { ...base, request_type: 'call_function', method_name: extra, args_base64: b58() };
    default:
      throw parseError(`Unknown path ${command}`);
  }
}

/** near-account-id's `ParseAccountError` text for a reason of `accountIdError`. */
export function parseAccountErrorText(accountId: string, reason: string): string {
  if (reason.startsWith('too short')) return 'the Account ID is too short';
  if (reason.startsWith('too long')) return 'the Account ID is too long';
  const at = /at (\d+)$/.exec(reason);
  const index = at ? Number(at[1]) : reason.startsWith('starts') ? 0 : accountId.length - 1;
  const char = JSON.stringify(accountId[index] ?? '').slice(1, -1);
  if (reason.startsWith('invalid character'))
    return `the Account ID contains an invalid character '${char}' at index ${index}`;
  return `the Account ID has a redundant separator '${char}' at index ${index}`;
}
