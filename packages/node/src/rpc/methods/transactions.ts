/**
 * Sending transactions and reading their status: `send_tx`, `broadcast_tx_async`, `broadcast_tx_commit`, `tx`
 * and `EXPERIMENTAL_tx_status`.
 */
import {
  BorshError,
  base58Decode,
  base58Encode,
  base64Decode,
  type DecodedSignedTransaction,
  decodeSignedTransaction,
} from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import { TransactionTimeoutError } from '../../chain/transaction-service.js';
import { TX_EXECUTION_LEVELS, type TxExecutionLevel, type TxStatus } from '../../chain/tx-status.js';
import { InvalidTxError } from '../../runtime/errors.js';
import { base64ErrorText } from '../base64-error.js';
import { failParse, type Params, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, parseError } from '../rpc-error.js';
import {
  readAccountId,
  readCryptoHash,
  readString,
  readStruct,
  structEntries,
  unitVariant,
} from '../serde.js';

/** How a signed transaction arrived: positional (`[base64]`, nearcore's `decode_signed_transaction`, errors
 * "Failed to decode transaction: …") or named (`signed_tx_base64`, serde, errors "Failed parsing args: …"). */
type TxForm = 'positional' | 'named';

function decodeTransaction(
  base64: string,
  form: TxForm = 'positional',
): { decoded: DecodedSignedTransaction; size: number } {
  const fail = (reason: string) =>
    parseError(
      `${form === 'positional' ? 'Failed to decode transaction' : 'Failed parsing args'}: ${reason}`,
    );
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(base64);
  } catch {
    throw fail(base64ErrorText(base64));
  }
  try {
    // `size` is nearcore's `SignedTransaction::get_size()`: the borsh length of the transaction, signature excluded.
    const decoded = decodeSignedTransaction(bytes, { lenientAccountIds: true });
    return { decoded, size: decoded.size };
  } catch (e) {
    if (e instanceof BorshError) throw fail(borshErrorText(e));
    throw e;
  }
}

/** borsh-rs's io error text where ours has a direct counterpart. */
function borshErrorText(e: BorshError): string {
  const reason = e.details.reason;
  if (reason.startsWith('unexpected end of input') || reason.startsWith('vector of'))
    return 'Unexpected length of input';
  if (reason.endsWith('trailing bytes')) return 'Not all bytes read';
  return reason;
}

function parseWaitUntil(p: Params, fallback: TxExecutionLevel): TxExecutionLevel {
  // `#[serde(default)] wait_until: TxExecutionStatus`: absent is the default; null is not a variant.
  const v = p.wait_until;
  if (v === undefined) return fallback;
  return unitVariant(v, TX_EXECUTION_LEVELS);
}

function invalidTransaction(e: InvalidTxError) {
  return handlerError('INVALID_TRANSACTION', {}, { TxExecutionError: { InvalidTxError: e.json } });
}

type DecodedTx = { decoded: DecodedSignedTransaction; size: number };

function submit(ctx: RpcContext, { decoded, size }: DecodedTx): string {
  try {
    return ctx.transactions.submit(decoded, size).hash;
  } catch (e) {
    if (e instanceof InvalidTxError) throw invalidTransaction(e);
    throw e;
  }
}

/** The RPC result for a status: the outcome fields (when known) and `final_execution_status` (keys sorted on the wire). */
function statusResult(status: TxStatus, withReceipts: boolean, ctx: RpcContext) {
  if (!status.outcome) return { final_execution_status: status.level };
  const o = status.outcome;
  const result: Record<string, unknown> = {
    status: o.status,
    transaction: o.transaction,
    transaction_outcome: o.transaction_outcome,
    receipts_outcome: o.receipts_outcome,
  };
  if (withReceipts) {
    result.receipts = o.receiptIds
      .map((id) => ctx.chain.receipt(base58Decode(id))?.view)
      .filter(
        (view): view is Record<string, unknown> =>
          view !== undefined && (view as { predecessor_id?: string }).predecessor_id !== undefined,
      );
  }
  result.final_execution_status = status.level;
  return { rawJson: stringifyJson(result) };
}

async function waitFor(ctx: RpcContext, hash: Uint8Array, level: TxExecutionLevel, withReceipts: boolean) {
  try {
    const status = await ctx.transactions.wait(hash, level, ctx.txTimeoutMs);
    return statusResult(status, withReceipts, ctx);
  } catch (e) {
    // nearcore polls until `polling_timeout`, whether or not the transaction is known, then answers
    // TIMEOUT_ERROR (no info through 2.13) with HTTP 408.
    if (e instanceof TransactionTimeoutError) throw handlerError('TIMEOUT_ERROR', undefined, 'Timeout');
    throw e;
  }
}

function unknownTransaction(hash: string) {
  return handlerError(
    'UNKNOWN_TRANSACTION',
    { requested_transaction_hash: hash },
    `Transaction ${hash} doesn't exist`,
  );
}

/**
 * The params of `send_tx`, `broadcast_tx_async` and `broadcast_tx_commit` (nearcore's
 * `RpcSendTransactionRequest::parse`): `[base64]`, or `{signed_tx_base64, wait_until?}`. A two-element array is
 * refused; any other array falls through to the named form and fails there.
 */
function sendParams(params: unknown): { tx: DecodedTx; waitUntil: TxExecutionLevel } {
  if (Array.isArray(params) && params.length === 1) {
    if (typeof params[0] !== 'string') failParse(`invalid type: ${typeName(params[0])}, expected a string`);
    return { tx: decodeTransaction(params[0], 'positional'), waitUntil: 'EXECUTED_OPTIMISTIC' };
  }
  if (Array.isArray(params) && params.length === 2) {
    if (typeof params[0] !== 'string') failParse(`invalid type: ${typeName(params[0])}, expected a string`);
    if (typeof params[1] !== 'string') failParse(`invalid type: ${typeName(params[1])}, expected a string`);
    throw parseError('Unable to parse send request: too many params passed');
  }
  // `RpcSendTransactionRequest { signed_tx_base64, #[serde(default)] wait_until }`, a plain struct: the
  // transaction is decoded as its field is read, before `wait_until` (key order).
  const read = readStruct(
    params,
    'RpcSendTransactionRequest',
    {
      signed_tx_base64: { read: (v: unknown) => decodeTransaction(readString(v), 'named') },
      wait_until: { read: (v: unknown) => unitVariant(v, TX_EXECUTION_LEVELS), absent: () => undefined },
    },
    ['wait_until'],
  );
  return { tx: read.signed_tx_base64, waitUntil: read.wait_until ?? 'EXECUTED_OPTIMISTIC' };
}

export async function sendTx(ctx: RpcContext, params: unknown) {
  const { tx, waitUntil } = sendParams(params);
  if (waitUntil === 'NONE') {
    // nearcore hands the transaction to the client actor without waiting for its checks (`send_tx_async`):
    // an invalid transaction is dropped silently, exactly as with `broadcast_tx_async`.
    broadcast(ctx, tx);
    return { final_execution_status: 'NONE' };
  }
  const hash = submit(ctx, tx);
  return waitFor(ctx, base58Decode(hash), waitUntil, false);
}

/** Pools a transaction if it passes the checks; returns its hash either way. */
function broadcast(ctx: RpcContext, { decoded, size }: DecodedTx): string {
  try {
    return ctx.transactions.submit(decoded, size).hash;
  } catch (e) {
    if (e instanceof InvalidTxError) return base58Encode(decoded.hash);
    throw e;
  }
}

/** nearcore answers with the hash at once and drops an invalid transaction without telling. */
export function broadcastTxAsync(ctx: RpcContext, params: unknown) {
  return broadcast(ctx, sendParams(params).tx);
}

/** Like `send_tx` with `EXECUTED_OPTIMISTIC`; a `wait_until` in the named form is ignored, as in nearcore. */
export async function broadcastTxCommit(ctx: RpcContext, params: unknown) {
  const hash = submit(ctx, sendParams(params).tx);
  return waitFor(ctx, base58Decode(hash), 'EXECUTED_OPTIMISTIC', false);
}

/**
 * `tx` and `EXPERIMENTAL_tx_status` (nearcore's `RpcTransactionStatusRequest::parse`): the legacy `[base64]` and
 * `[hash, sender]`, or named `{signed_tx_base64 | tx_hash + sender_account_id, wait_until?}` where the
 * transaction part is an untagged enum (`TransactionInfo`): whatever fails to match it gets serde's "data did
 * not match any variant" message.
 */
export function txStatus(withReceipts: boolean) {
  return async (ctx: RpcContext, params: unknown) => {
    let level: TxExecutionLevel = 'EXECUTED_OPTIMISTIC';
    let hash: Uint8Array | undefined;
    let signed: { decoded: DecodedSignedTransaction; size: number } | undefined;
    if (Array.isArray(params) && params.length === 1) {
      if (typeof params[0] !== 'string') failParse(`invalid type: ${typeName(params[0])}, expected a string`);
      signed = decodeTransaction(params[0], 'positional');
    } else if (Array.isArray(params) && params.length === 2) {
      hash = parseTxHash(params[0]);
      parseSender(params[1]);
    } else {
      // `RpcTransactionStatusRequest { #[serde(flatten)] transaction_info, #[serde(default)] wait_until }`:
      // `wait_until` is read with the keys, the flattened untagged `TransactionInfo` after them.
      const p = Object.fromEntries(structEntries(params, 'RpcTransactionStatusRequest'));
      level = parseWaitUntil(p, 'EXECUTED_OPTIMISTIC');
      const noMatch = () => failParse('data did not match any variant of untagged enum TransactionInfo');
      if (typeof p.signed_tx_base64 === 'string') {
        try {
          signed = decodeTransaction(p.signed_tx_base64, 'named');
        } catch {
          // falls through to the `TransactionId` variant
        }
      }
      if (!signed) {
        try {
          hash = parseTxHash(p.tx_hash);
          parseSender(p.sender_account_id);
        } catch {
          noMatch();
        }
      }
    }
    if (signed) hash = signed.decoded.hash;
    if (!hash) throw new Error('unreachable: no transaction hash');
    const now = ctx.transactions.status(hash);
    if (!now && signed) {
      // nearcore (`tx_status_fetch`) checks an unknown signed transaction without pooling it and answers
      // INVALID_TRANSACTION when it would be refused.
      try {
        ctx.transactions.submit(signed.decoded, signed.size, { checkOnly: true });
      } catch (e) {
        if (e instanceof InvalidTxError) throw invalidTransaction(e);
        throw e;
      }
    }
    if (level === 'NONE') {
      if (!now) throw unknownTransaction(base58Encode(hash));
      return statusResult(now, withReceipts, ctx);
    }
    return waitFor(ctx, hash, level, withReceipts);
  };
}

function parseTxHash(value: unknown): Uint8Array {
  return readCryptoHash(value);
}

function parseSender(value: unknown): string {
  return readAccountId(value);
}
