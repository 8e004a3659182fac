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
  isValidAccountId,
} from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import { TransactionTimeoutError } from '../../chain/transaction-service.js';
import { TX_EXECUTION_LEVELS, type TxExecutionLevel, type TxStatus } from '../../chain/tx-status.js';
import { InvalidTxError } from '../../runtime/errors.js';
import { failParse, objectParams, optionalString, type Params, requireString, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError, parseError } from '../rpc-error.js';

function decodeTransaction(base64: string): { decoded: DecodedSignedTransaction; size: number } {
  let bytes: Uint8Array;
  try {
    bytes = base64Decode(base64);
  } catch (e) {
    throw parseError(`Failed to decode transaction: ${(e as Error).message}`);
  }
  try {
    return { decoded: decodeSignedTransaction(bytes, { lenientAccountIds: true }), size: bytes.length };
  } catch (e) {
    if (e instanceof BorshError || e instanceof Error)
      throw parseError(`Failed to decode transaction: ${e.message}`);
    throw e;
  }
}

function parseWaitUntil(p: Params, fallback: TxExecutionLevel): TxExecutionLevel {
  const v = p.wait_until;
  if (v === undefined || v === null) return fallback;
  if (typeof v !== 'string' || !TX_EXECUTION_LEVELS.includes(v as TxExecutionLevel)) {
    failParse(
      `unknown variant ${typeName(v)}, expected one of ${TX_EXECUTION_LEVELS.map((l) => `\`${l}\``).join(', ')}`,
    );
  }
  return v as TxExecutionLevel;
}

function invalidTransaction(e: InvalidTxError) {
  return handlerError('INVALID_TRANSACTION', {}, { TxExecutionError: { InvalidTxError: e.json } });
}

function submit(ctx: RpcContext, base64: string): string {
  const { decoded, size } = decodeTransaction(base64);
  try {
    return ctx.transactions.submit(decoded, size).hash;
  } catch (e) {
    if (e instanceof InvalidTxError) throw invalidTransaction(e);
    throw e;
  }
}

/** The RPC result for a status: the outcome fields (when known), then `final_execution_status`. */
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
    if (e instanceof TransactionTimeoutError) {
      if (!ctx.transactions.status(hash)) throw unknownTransaction(e.txHash);
      throw handlerError('TIMEOUT_ERROR', undefined, 'Timeout');
    }
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

export async function sendTx(ctx: RpcContext, params: unknown) {
  const p = objectParams(params);
  const base64 = requireString(p, 'signed_tx_base64');
  const level = parseWaitUntil(p, 'EXECUTED_OPTIMISTIC');
  const hash = submit(ctx, base64);
  if (level === 'NONE') return { final_execution_status: 'NONE' };
  return waitFor(ctx, base58Decode(hash), level, false);
}

function singleBase64(params: unknown): string {
  if (!Array.isArray(params) || params.length !== 1)
    failParse('invalid type: expected an array with one base64 string');
  if (typeof params[0] !== 'string') failParse(`invalid type: ${typeName(params[0])}, expected a string`);
  return params[0];
}

export function broadcastTxAsync(ctx: RpcContext, params: unknown) {
  const { decoded, size } = decodeTransaction(singleBase64(params));
  try {
    return ctx.transactions.submit(decoded, size).hash;
  } catch (e) {
    // nearcore answers with the hash at once and drops an invalid transaction without telling.
    if (e instanceof InvalidTxError) return base58EncodeHash(decoded.hash);
    throw e;
  }
}

export async function broadcastTxCommit(ctx: RpcContext, params: unknown) {
  const hash = submit(ctx, singleBase64(params));
  return waitFor(ctx, base58Decode(hash), 'EXECUTED_OPTIMISTIC', false);
}

/** `tx` and `EXPERIMENTAL_tx_status`: by `{tx_hash, sender_account_id}`, by `{signed_tx_base64}`, or the
 * legacy `[hash, sender]` / `[base64]`. */
export function txStatus(withReceipts: boolean) {
  return async (ctx: RpcContext, params: unknown) => {
    let p: Params;
    if (Array.isArray(params)) {
      if (params.length === 2) p = { tx_hash: params[0], sender_account_id: params[1] };
      else if (params.length === 1) p = { signed_tx_base64: params[0] };
      else
        failParse(
          `invalid length ${params.length}, expected [tx_hash, sender_account_id] or [signed_tx_base64]`,
        );
    } else p = objectParams(params);
    const level = parseWaitUntil(p, 'EXECUTED_OPTIMISTIC');
    let hash: Uint8Array;
    if (p.signed_tx_base64 !== undefined) {
      const { decoded } = decodeTransaction(requireString(p, 'signed_tx_base64'));
      hash = decoded.hash;
    } else {
      const text = requireString(p, 'tx_hash');
      const sender = optionalString(p, 'sender_account_id');
      if (sender === undefined) failParse('missing field `sender_account_id`');
      if (!isValidAccountId(sender)) failParse(`invalid value: ${typeName(sender)}, expected an account id`);
      try {
        hash = base58Decode(text);
      } catch {
        failParse(`invalid value: ${typeName(text)}, expected a transaction hash`);
      }
      if (hash.length !== 32) failParse(`invalid value: ${typeName(text)}, expected a transaction hash`);
    }
    const now = ctx.transactions.status(hash);
    if (level === 'NONE') {
      if (!now) throw unknownTransaction(base58EncodeHash(hash));
      return statusResult(now, withReceipts, ctx);
    }
    return waitFor(ctx, hash, level, withReceipts);
  };
}

const base58EncodeHash = (h: Uint8Array) => base58Encode(h);
