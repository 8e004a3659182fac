// The call's context: accounts, deposit, gas, block.
import * as env from "./env";
import { fromUtf8, ptr } from "./bytes";
import { readRegisterOrEmpty, REG } from "./registers";
import { U128 } from "./u128";

export function predecessorAccountId(): string {
  env.predecessor_account_id(REG);
  return fromUtf8(readRegisterOrEmpty(REG));
}

export function currentAccountId(): string {
  env.current_account_id(REG);
  return fromUtf8(readRegisterOrEmpty(REG));
}

export function signerAccountId(): string {
  env.signer_account_id(REG);
  return fromUtf8(readRegisterOrEmpty(REG));
}

export function attachedDeposit(): U128 {
  const buf = new Uint8Array(16);
  env.attached_deposit(ptr(buf));
  return U128.fromLE(buf);
}

export function prepaidGas(): u64 {
  return env.prepaid_gas();
}

export function usedGas(): u64 {
  return env.used_gas();
}

export function blockHeight(): u64 {
  return env.block_index();
}

export function blockTimestamp(): u64 {
  return env.block_timestamp();
}
