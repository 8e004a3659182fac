/**
 * Pieces of the hand-written WAT contract tests (test/vm-wat.test.ts): compiling WAT with wabt, calling a
 * method without near-api-js throwing on failure, and `query` call_function.
 */
import assert from 'node:assert/strict';
import { TGAS } from '@shadebox/primitives';
import { type Account, actions } from 'near-api-js';
import wabtInit from 'wabt';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';

type Wabt = Awaited<ReturnType<typeof wabtInit>>;
let wabtPromise: Promise<Wabt> | undefined;

const ALLOWED = { bulk_memory: true, reference_types: true, sign_extension: true, sat_float_to_int: true };

/** Compiles WAT; `features` turns on more proposals (to build modules nearcore refuses). */
export async function wat(src: string, features: Record<string, boolean> = {}): Promise<Uint8Array> {
  wabtPromise ??= wabtInit();
  const wabt = await wabtPromise;
  const mod = wabt.parseWat('t.wat', src, { ...ALLOWED, ...features });
  try {
    // wabt's validator refuses shared memories even with `threads` on; forbidden modules skip it.
    if (Object.keys(features).length === 0) mod.validate();
    return new Uint8Array(mod.toBinary({}).buffer);
  } finally {
    mod.destroy();
  }
}

/** Sends one FunctionCall and returns the FINAL transaction result (failures included). */
export async function callRaw(
  account: Account,
  contractId: string,
  methodName: string,
  args: Uint8Array = new Uint8Array(),
  gas = 30n * TGAS,
  deposit = 0n,
): Promise<Json> {
  return account.signAndSendTransaction({
    receiverId: contractId,
    actions: [actions.functionCall(methodName, args, gas, deposit)],
    throwOnFailure: false,
    waitUntil: 'FINAL',
  });
}

/** The outcome of the function call receipt (the first receipt) of a transaction result. */
export function callOutcome(result: Json): Json {
  const [receiptId] = result.transaction_outcome.outcome.receipt_ids;
  const outcome = result.receipts_outcome.find((o: Json) => o.id === receiptId);
  assert.ok(outcome, 'function call receipt outcome');
  return outcome.outcome;
}

/** The `ActionError` kind a failed function call receipt ended with. */
export function failureKind(result: Json): Json {
  const status = callOutcome(result).status;
  assert.ok(status.Failure, `expected a failure, got ${JSON.stringify(status)}`);
  assert.equal(status.Failure.ActionError.index, 0);
  return status.Failure.ActionError.kind;
}

export const execError = (text: string) => ({ FunctionCallError: { ExecutionError: text } });

/** `query` call_function; answers the whole result (`result`/`logs`, or `error`). */
export async function view(
  url: string,
  accountId: string,
  method: string,
  args: Uint8Array = new Uint8Array(),
) {
  return rpc(url, 'query', {
    request_type: 'call_function',
    finality: 'optimistic',
    account_id: accountId,
    method_name: method,
    args_base64: Buffer.from(args).toString('base64'),
  });
}

/** The error text of a view call that must fail. */
export async function viewError(url: string, accountId: string, method: string, args?: Uint8Array) {
  const r = await view(url, accountId, method, args);
  assert.equal(typeof r.error, 'string', `view ${method} should fail: ${JSON.stringify(r)}`);
  return r.error as string;
}

export const vmError = (debug: string) => `wasm execution failed with error: ${debug}`;

export const b64 = (s: string | Uint8Array) => Buffer.from(s).toString('base64');
export const bytes = (...parts: Array<string | Uint8Array | number[]>) =>
  new Uint8Array(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
