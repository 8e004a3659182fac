// Promises: batches, function calls, transfers, yield/resume, results.
import * as env from "./env";
import { len, ptr, utf8 } from "./bytes";
import { readRegisterOrEmpty, REG } from "./registers";
import { U128 } from "./u128";

export const TGAS: u64 = 1_000_000_000_000;

export function promiseBatchCreate(accountId: string): u64 {
  const a = utf8(accountId);
  return env.promise_batch_create(len(a), ptr(a));
}

export function promiseBatchThen(promise: u64, accountId: string): u64 {
  const a = utf8(accountId);
  return env.promise_batch_then(promise, len(a), ptr(a));
}

export function functionCall(promise: u64, method: string, args: Uint8Array, deposit: U128, gas: u64): void {
  const m = utf8(method);
  const amount = deposit.toLE();
  env.promise_batch_action_function_call(promise, len(m), ptr(m), len(args), ptr(args), ptr(amount), gas);
}

/** A function call with `gas` plus a share (`weight`) of the gas left unused when the call ends. */
export function functionCallWeight(
  promise: u64, method: string, args: Uint8Array, deposit: U128, gas: u64, weight: u64,
): void {
  const m = utf8(method);
  const amount = deposit.toLE();
  env.promise_batch_action_function_call_weight(promise, len(m), ptr(m), len(args), ptr(args), ptr(amount), gas, weight);
}

export function transfer(promise: u64, amount: U128): void {
  const a = amount.toLE();
  env.promise_batch_action_transfer(promise, ptr(a));
}

export class YieldPromise {
  constructor(public index: u64, public dataId: Uint8Array) {}
}

/** `promise_yield_create`: the promise index and the 32-byte data id (read from `register`). */
export function promiseYieldCreate(method: string, args: Uint8Array, gas: u64, weight: u64, register: u64): YieldPromise {
  const m = utf8(method);
  const index = env.promise_yield_create(len(m), ptr(m), len(args), ptr(args), gas, weight, register);
  return new YieldPromise(index, readRegisterOrEmpty(register));
}

/** `promise_yield_resume`: true when a yield with that data id was still waiting. */
export function promiseYieldResume(dataId: Uint8Array, payload: Uint8Array): bool {
  return env.promise_yield_resume(len(dataId), ptr(dataId), len(payload), ptr(payload)) == 1;
}

export function promiseResultsCount(): u64 {
  return env.promise_results_count();
}

export const RESULT_NOT_READY: u64 = 0;
export const RESULT_SUCCESSFUL: u64 = 1;
export const RESULT_FAILED: u64 = 2;

export class PromiseResult {
  constructor(public status: u64, public value: Uint8Array) {}
  get ok(): bool {
    return this.status == RESULT_SUCCESSFUL;
  }
}

export function promiseResult(index: u64): PromiseResult {
  const status = env.promise_result(index, REG);
  return new PromiseResult(status, status == RESULT_SUCCESSFUL ? readRegisterOrEmpty(REG) : new Uint8Array(0));
}

export function promiseReturn(promise: u64): void {
  env.promise_return(promise);
}

export function createAccount(promise: u64): void {
  env.promise_batch_action_create_account(promise);
}

/** Adds a full-access key; `publicKey` is borsh's PublicKey (the key type byte, then the key). */
export function addFullAccessKey(promise: u64, publicKey: Uint8Array, nonce: u64 = 0): void {
  env.promise_batch_action_add_key_with_full_access(promise, len(publicKey), ptr(publicKey), nonce);
}
