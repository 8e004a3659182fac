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
  base58Encode,
  base64Encode,
  decodeAccessKey,
  parsePublicKey,
  publicKeyToString,
  sha256,
} from '@shadebox/primitives';
import type { BlockRecord } from '../../chain/records.js';
import { accountContractCode } from '../../runtime/account-contract-code.js';
import { accountToView, decodeAccount } from '../../state/account.js';
import { accessKeyKey, contractCodeKey, contractDataPrefix, keySuffix } from '../../state/state-keys.js';
import { MissingTrieNodeError } from '../../trie/index.js';
import { accountAt } from '../account-at-block.js';
import { parseAccountErrorText } from '../account-id-error.js';
import { type BlockReference, notFoundText, resolveBlock } from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, parseError, RpcResponseError } from '../rpc-error.js';
import { decodeBs58Into, publicKeyErrorText, readString } from '../serde.js';
import { viewAccessKeyList } from './access-key-list.js';
import { type ParsedQuery, parseQueryRequest, type QueryFields } from './query-request.js';
import { viewCall } from './view-call.js';
import { viewGasKeyNonces } from './view-gas-key-nonces.js';
import { viewGlobalContractCode } from './view-global-contract-code.js';
import { provenContractState, provenStateView } from './view-state-proof.js';

/** `trie_viewer_state_size_limit`: accounts with more contract state than this cannot be viewed whole. */
export const STATE_VIEW_SIZE_LIMIT = 50_000n;
/** nearcore's `MAX_VIEW_STATE_PAGE_ITEMS` and `MAX_VIEW_STATE_PAGE_BYTES`: the caps of a paginated page. */
export const VIEW_STATE_PAGE_ITEMS = 10_000;
export const VIEW_STATE_PAGE_BYTES = 50_000;

export function query(ctx: RpcContext, params: unknown) {
  return runQuery(
    ctx,
    Array.isArray(params) && params.length === 2 ? legacyQuery(params) : parseQueryRequest(params),
  );
}

/** A parsed query answered; the EXPERIMENTAL_view_* methods (experimental-views.ts) answer through it too. */
export function runQuery(ctx: RpcContext, { ref, requestType, accountId, fields }: ParsedQuery) {
  const block = resolveBlock(ctx.chain, ref);
  if (!block) throw garbageCollectedBlock(ctx, ref) ?? unknownBlock(ref);
  const at = { block_height: block.height, block_hash: block.hash };
  // Made only for the request types that read more than the account (a view reads through its own).
  const state = () => ctx.chain.stateAt(block.height);
  const accountBytes = accountAt(ctx.chain, block, accountId);

  switch (requestType) {
    case 'view_account': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      return { ...accountToView(decodeAccount(accountBytes)), ...at };
    }
    case 'view_code': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      const account = decodeAccount(accountBytes);
      const code = accountContractCode(state(), ctx.chain.shardOf(accountId), accountId, account)?.code();
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
      const bytes = state().get(accessKeyKey(accountId, publicKey));
      if (!bytes) {
        return {
          error: `access key ${publicKeyToString(publicKey)} does not exist while viewing`,
          logs: [],
          ...at,
        };
      }
      return { ...accessKeyToView(decodeAccessKey(bytes)), ...at };
    }
    case 'view_gas_key_nonces':
      return { ...viewGasKeyNonces(state(), accountId, fields.publicKey!, at), ...at };
    case 'view_access_key_list':
      return { ...viewAccessKeyList(state(), accountId, fields.keyPage ?? {}, at), ...at };
    case 'view_state': {
      const page = fields.page!;
      // nearcore's `TrieViewer::view_state`: a request with `limit` or `after_key_base64` is paginated.
      const paginated = page.limit !== undefined || page.afterKey !== undefined;
      // The viewer's two refusals of a page (`ProofUnsupportedWithPagination`, `AfterKeyOutsidePrefix`), before
      // the account is looked up: nearcore's `from_view_state_error` makes both `QueryError::InternalError`.
      if (paginated && page.includeProof) {
        throw queryInternalError('include_proof is not supported for a paginated view_state request');
      }
      const prefixBytes = Buffer.from(fields.prefix!);
      if (page.afterKey && !Buffer.from(page.afterKey).subarray(0, prefixBytes.length).equals(prefixBytes)) {
        throw queryInternalError('after_key_base64 must start with prefix_base64');
      }
      if (!accountBytes) throw unknownAccount(accountId, at);
      const account = decodeAccount(accountBytes);
      const codeLength = BigInt(state().get(contractCodeKey(accountId))?.length ?? 0);
      // Only a whole-state read is refused for size; a paginated one is bounded by its page caps.
      if (!paginated && account.storageUsage - codeLength > STATE_VIEW_SIZE_LIMIT) {
        throw handlerError(
          'TOO_LARGE_CONTRACT_STATE',
          { contract_account_id: accountId, ...at },
          `State of contract ${accountId} is too large to be viewed`,
        );
      }
      // With a proof, the values come from the shard's trie with the nodes that prove them (never paginated).
      if (page.includeProof) return { ...viewStateWithProof(ctx, block, accountId, fields.prefix!), ...at };
      const base = contractDataPrefix(accountId);
      const prefix = new Uint8Array([...base, ...fields.prefix!]);
      let entries = state()
        .scan(prefix)
        .map(({ key, value }) => ({ key: keySuffix(key, base), value }));
      if (page.afterKey) {
        const after = Buffer.from(page.afterKey);
        entries = entries.filter(({ key }) => Buffer.compare(Buffer.from(key), after) > 0);
      }
      let more = false;
      if (paginated) {
        // Per-page caps: items, and a soft byte cap checked before each entry (a page may run one entry over).
        const itemCap = Math.min(page.limit ?? VIEW_STATE_PAGE_ITEMS, VIEW_STATE_PAGE_ITEMS);
        let bytes = 0;
        let kept = 0;
        for (const { key, value } of entries) {
          if (kept >= itemCap || bytes >= VIEW_STATE_PAGE_BYTES) {
            more = true;
            break;
          }
          bytes += key.length + value.length;
          kept++;
        }
        entries = entries.slice(0, kept);
      }
      const values = entries.map(({ key, value }) => ({
        key: base64Encode(key),
        value: base64Encode(value),
      }));
      return {
        values,
        ...(more ? { last_key: values[values.length - 1].key } : {}),
        ...at,
      };
    }
    case 'call_function': {
      if (!accountBytes) throw unknownAccount(accountId, at);
      const { methodName, args } = fields as Required<QueryFields>;
      return (
        ctx.viewWorkers?.run(
          ctx.chain,
          block,
          accountId,
          accountBytes,
          methodName,
          args,
          'finality' in ref ? ref.finality : undefined,
        ) ?? viewCall(ctx.chain, block, accountId, accountBytes, methodName, args)
      );
    }
    case 'view_global_contract_code':
    case 'view_global_contract_code_by_account_id':
      return viewGlobalContractCode(ctx.chain, fields.globalContract!, at);
  }
}

/** `view_state` with `include_proof` at `block`'s post-state (rpc/methods/view-state-proof.ts). A node the
 * store no longer has (a block of a home made before the trie was kept, below where it was rebuilt) is a
 * storage error, which nearcore's viewer turns into `QueryError::InternalError`. */
function viewStateWithProof(ctx: RpcContext, block: BlockRecord, accountId: string, prefix: Uint8Array) {
  try {
    const trie = ctx.chain.trieAt(block, ctx.chain.shardOf(accountId));
    return provenStateView(
      provenContractState(trie, accountId, prefix, (key) => ctx.chain.stateValue(key, block.height)),
    );
  } catch (error) {
    if (error instanceof MissingTrieNodeError) throw queryInternalError(`Storage error: ${error.message}`);
    throw error;
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

/** `RpcQueryError::InternalError`: its text is the error's Display, "The node reached its limits…". */
function queryInternalError(message: string) {
  return new RpcResponseError(
    'INTERNAL_ERROR',
    { name: 'INTERNAL_ERROR', info: { error_message: message } },
    -32000,
    'Server error',
    `The node reached its limits. Try again later. More details: ${message}`,
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
 * parse errors, without the "Failed parsing args: " prefix, except the two strings' types.
 */
function legacyQuery(params: unknown[]): ParsedQuery {
  const [path, data] = params.map(readString) as [string, string];
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
  const base = { ref: { finality: 'optimistic' } as BlockReference, accountId };
  // nearcore's `parse_bs58_data`: decoded into a buffer of at most 10 KiB less the path.
  const b58 = () => {
    const decoded = decodeBs58Into(data, Math.min(Math.max(0, 10 * 1024 - path.length), data.length));
    if ('error' in decoded) throw parseError(decoded.error);
    if ('tooSmall' in decoded) throw parseError('Query data size is too large');
    return decoded.ok;
  };
  switch (command) {
    case 'account':
      return { ...base, requestType: 'view_account', fields: {} };
    case 'code':
      return { ...base, requestType: 'view_code', fields: {} };
    case 'contract':
      return { ...base, requestType: 'view_state', fields: { prefix: b58(), page: { includeProof: false } } };
    case 'access_key': {
      if (extra === undefined) return { ...base, requestType: 'view_access_key_list', fields: {} };
      if (publicKeyErrorText(extra) !== null) throw parseError('Invalid public key');
      return { ...base, requestType: 'view_access_key', fields: { publicKey: parsePublicKey(extra) } };
    }
    case 'call':
      if (extra === undefined) throw parseError('Method name is missing');
      return { ...base, requestType: 'call_function', fields: { methodName: extra, args: b58() } };
    default:
      throw parseError(`Unknown path ${command}`);
  }
}
