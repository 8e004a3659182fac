/**
 * The `EXPERIMENTAL_view_*` family and `EXPERIMENTAL_call_function` (nearcore chain/jsonrpc/src/api/view_*.rs,
 * call_function.rs, and their request and error types in chain/jsonrpc-primitives): each is a `query` request
 * type as a method of its own. The params are the request's fields with a flattened block reference and no
 * `request_type`; the answer is the `query` answer for the same block. Unlike `query`, nothing is turned into a
 * legacy `result.error`: a missing access key is UNKNOWN_ACCESS_KEY and a failed view call is
 * CONTRACT_EXECUTION_ERROR with the `FunctionCallError` as an object. Each method's error enum is the
 * query's errors that can happen to it; its message is the enum's Display, and the query errors it has no
 * variant for (a garbage-collected block) become its INTERNAL_ERROR.
 */
import { publicKeyToString } from '@shadebox/primitives';
import { callFunction } from '../../runtime/state-viewer/call-function.js';
import { decodeAccount } from '../../state/account.js';
import type { FunctionCallError } from '../../vm/vm-errors.js';
import { accountAt } from '../account-at-block.js';
import type { BlockReference } from '../block-reference.js';
import { resolveBlock } from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, RpcResponseError } from '../rpc-error.js';
import { runQuery } from './query.js';
import { parseQueryRequest, type RequestType } from './query-request.js';
import { viewApplyState, viewBlockFacts } from './view-call.js';

type At = { block_height: number; block_hash: string };

/** A `query` request type served as `EXPERIMENTAL_<name>`, its params read as nearcore's `structName`. */
export function experimentalView(requestType: RequestType, structName: string) {
  return (ctx: RpcContext, params: unknown) => {
    const parsed = parseQueryRequest(withRequestType(params, requestType), structName);
    let answer: Record<string, unknown>;
    try {
      answer = runQuery(ctx, parsed) as Record<string, unknown>;
    } catch (err) {
      throw methodError(err, requestType);
    }
    if (requestType === 'view_access_key' && 'error' in answer) {
      // The legacy `result.error` of `query` for a missing key; here it is the method's error.
      const at = { block_height: answer.block_height as number, block_hash: answer.block_hash as string };
      const publicKey = publicKeyToString(parsed.fields.publicKey!);
      throw handlerError(
        'UNKNOWN_ACCESS_KEY',
        { public_key: publicKey, ...at },
        `Access key for public key ${publicKey} has never been observed on the node`,
      );
    }
    return answer;
  };
}

/** `EXPERIMENTAL_call_function`: `RpcCallFunctionRequest` `{account_id, method_name, args_base64}`. */
export function experimentalCallFunction(ctx: RpcContext, params: unknown) {
  const parsed = parseQueryRequest(withRequestType(params, 'call_function'), 'RpcCallFunctionRequest');
  const block = resolveBlock(ctx.chain, parsed.ref);
  if (!block) {
    // The block errors exactly as the other methods of the family say them.
    try {
      runQuery(ctx, parsed);
    } catch (err) {
      throw methodError(err, 'call_function');
    }
  }
  const at = { block_height: block!.height, block_hash: block!.hash };
  const accountBytes = accountAt(ctx.chain, block!, parsed.accountId);
  if (!accountBytes) throw methodError(unknownAccountError(parsed.accountId, at), 'call_function');
  const { methodName, args } = parsed.fields as { methodName: string; args: Uint8Array };
  const facts = viewBlockFacts(ctx.chain, block!);
  const out = callFunction(
    viewApplyState(ctx.chain, facts, parsed.accountId),
    parsed.accountId,
    decodeAccount(accountBytes),
    methodName,
    args,
  );
  if ('error' in out) {
    const vmError = rpcFunctionCallError(out.vmError);
    throw handlerError(
      'CONTRACT_EXECUTION_ERROR',
      { vm_error: vmError, ...at },
      `Function call returned an error: ${rpcFunctionCallErrorDebug(vmError, out.vmError)}`,
    );
  }
  return { result: Array.from(out.result), logs: out.logs, ...at };
}

function withRequestType(params: unknown, requestType: RequestType): unknown {
  if (params === null || typeof params !== 'object' || Array.isArray(params)) return params;
  return { ...params, request_type: requestType };
}

function unknownAccountError(accountId: string, at: At) {
  return handlerError(
    'UNKNOWN_ACCOUNT',
    { requested_account_id: accountId, ...at },
    `account ${accountId} does not exist while viewing`,
  );
}

/**
 * A query error as the method's own error enum has it (`From<RpcQueryError> for RpcView…Error`): the block
 * reference's message is the enum's, a garbage-collected block is INTERNAL_ERROR, and
 * `EXPERIMENTAL_view_gas_key_nonces` words its two account and key errors with capitals.
 */
function methodError(err: unknown, requestType: RequestType): unknown {
  if (!(err instanceof RpcResponseError) || err.errorName !== 'HANDLER_ERROR') return err;
  const { name, info } = err.errorCause as { name: string; info?: Record<string, unknown> };
  switch (name) {
    case 'UNKNOWN_BLOCK': {
      const ref = info?.block_reference as BlockReference;
      return handlerError(
        'UNKNOWN_BLOCK',
        { block_reference: ref },
        `Block either has never been observed on the node or has been garbage collected: ${blockReferenceDebug(ref)}`,
      );
    }
    case 'GARBAGE_COLLECTED_BLOCK':
      return methodInternalError(
        `The data for block #${info?.block_height} is garbage collected on this node, use an archival node to fetch historical data`,
      );
    case 'UNKNOWN_ACCOUNT':
      if (requestType !== 'view_gas_key_nonces') return err;
      return handlerError(
        'UNKNOWN_ACCOUNT',
        info,
        `Account ${info?.requested_account_id} does not exist while viewing`,
      );
    case 'TOO_MANY_ACCESS_KEYS':
      // `RpcViewAccessKeyListError` has no such variant: its `From<RpcQueryError>` turns it into
      // `InternalError { error_message: format!("Unexpected query error: {unexpected:?}") }`.
      return methodInternalError(`Unexpected query error: ${tooManyAccessKeysDebug(info ?? {})}`);
    case 'UNKNOWN_GAS_KEY':
      return handlerError(
        'UNKNOWN_GAS_KEY',
        info,
        `Gas key for public key ${info?.public_key} does not exist while viewing`,
      );
    default:
      return err;
  }
}

/** A method's `InternalError { error_message }`: INTERNAL_ERROR, HTTP 500. */
function methodInternalError(message: string) {
  return new RpcResponseError(
    'INTERNAL_ERROR',
    { name: 'INTERNAL_ERROR', info: { error_message: message } },
    -32000,
    'Server error',
    `The node reached its limits. Try again later. More details: ${message}`,
  );
}

/** `{:?}` of `RpcQueryError::TooManyAccessKeys`: near-account-id's derived `AccountId("…")`, a `CryptoHash` as
 * base58. */
function tooManyAccessKeysDebug(info: Record<string, unknown>): string {
  return (
    `TooManyAccessKeys { requested_account_id: AccountId(${JSON.stringify(info.requested_account_id)}), ` +
    `limit: ${info.limit}, block_height: ${info.block_height}, block_hash: ${info.block_hash} }`
  );
}

/** Rust's `{:?}` of a `BlockReference`. */
function blockReferenceDebug(ref: BlockReference): string {
  if ('block_id' in ref)
    return typeof ref.block_id === 'number'
      ? `BlockId(Height(${ref.block_id}))`
      : `BlockId(Hash(${ref.block_id}))`;
  if ('finality' in ref)
    return `Finality(${{ optimistic: 'None', 'near-final': 'DoomSlug', final: 'Final' }[ref.finality]})`;
  return `SyncCheckpoint(${ref.sync_checkpoint === 'genesis' ? 'Genesis' : 'EarliestAvailable'})`;
}

const PANIC_PREFIX = 'Smart contract panicked: ';

/**
 * nearcore's `RpcFunctionCallError`: the transaction outcome's `FunctionCallError`, except that an
 * `ExecutionError` whose text is "Smart contract panicked: " and JSON carries that JSON itself.
 */
function rpcFunctionCallError(error: FunctionCallError): unknown {
  const json = error.outcomeJson() as Record<string, unknown> | string;
  if (typeof json === 'object' && json !== null && typeof json.ExecutionError === 'string') {
    const text = json.ExecutionError;
    if (text.startsWith(PANIC_PREFIX)) {
      try {
        return { ExecutionError: JSON.parse(text.slice(PANIC_PREFIX.length)) };
      } catch {
        // Not JSON: the text stays a string.
      }
    }
    return { ExecutionError: text };
  }
  return json;
}

/** `{:?}` of `RpcFunctionCallError`: the VM error's own debug form, or `ExecutionError(<serde_json Value>)`. */
function rpcFunctionCallErrorDebug(view: unknown, error: FunctionCallError): string {
  if (typeof view === 'object' && view !== null && 'ExecutionError' in view)
    return `ExecutionError(${jsonValueDebug((view as { ExecutionError: unknown }).ExecutionError)})`;
  return error.debug();
}

/** serde_json's `Value` Debug: `String("x")`, `Number(1)`, `Array [..]`, `Object {"k": ..}`. */
function jsonValueDebug(value: unknown): string {
  if (value === null) return 'Null';
  if (typeof value === 'boolean') return `Bool(${value})`;
  if (typeof value === 'number') return `Number(${value})`;
  if (typeof value === 'string') return `String(${JSON.stringify(value)})`;
  if (Array.isArray(value)) return `Array [${value.map(jsonValueDebug).join(', ')}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([k, v]) => `${JSON.stringify(k)}: ${jsonValueDebug(v)}`,
  );
  return `Object {${entries.join(', ')}}`;
}
