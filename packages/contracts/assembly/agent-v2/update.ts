// `update_contract`: the owner replaces the code and calls its `migrate`, as the template does. Its input is
// raw bytes, not JSON: 8 bytes of gas in Tgas (u64 little-endian) for `migrate`, then the Wasm.
import { ptr } from "../lib/bytes";
import { currentAccountId } from "../lib/context";
import { functionCall, promiseBatchCreate, promiseReturn, TGAS } from "../lib/promises";
import { input } from "../lib/registers";
import { U128 } from "../lib/u128";

@external("env", "promise_batch_action_deploy_contract")
declare function promise_batch_action_deploy_contract(promise_index: u64, code_len: u64, code_ptr: u64): void;

export function updateContract(): void {
  const raw = input();
  if (raw.length < 8) throw new Error("Input must be at least 8 bytes: first 8 bytes are gas (u64), followed by WASM code");
  let tgas: u64 = 0;
  for (let i = 7; i >= 0; i--) tgas = (tgas << 8) | <u64>raw[i];
  const code = raw.subarray(8);
  if (code.length == 0) throw new Error("WASM code cannot be empty");
  const p = promiseBatchCreate(currentAccountId());
  promise_batch_action_deploy_contract(p, <u64>code.length, ptr(code));
  functionCall(p, "migrate", new Uint8Array(0), new U128(), tgas * TGAS);
  promiseReturn(p);
}
