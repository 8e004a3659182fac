/**
 * Borsh of the gas-key (NEP-611) types (core/primitives-core/src/account.rs, core/primitives/src/action/mod.rs):
 * `GasKeyInfo { balance: u128, num_nonces: u16 }`, and the bodies of the actions 12
 * `TransferToGasKey { public_key, deposit: u128 }` and 13 `WithdrawFromGasKey { public_key, amount: u128 }`.
 */
import type { BorshReader, BorshWriter } from './borsh.js';
import { readPublicKey, writePublicKey } from './key-borsh.js';
import type { Action, GasKeyInfo } from './types.js';

export const TRANSFER_TO_GAS_KEY_TAG = 12;
export const WITHDRAW_FROM_GAS_KEY_TAG = 13;

export function writeGasKeyInfo(w: BorshWriter, info: GasKeyInfo): void {
  w.u128(info.balance).u16(info.numNonces);
}

export function readGasKeyInfo(r: BorshReader): GasKeyInfo {
  return { balance: r.u128(), numNonces: r.u16() };
}

type GasKeyAction = Extract<Action, { type: 'TransferToGasKey' | 'WithdrawFromGasKey' }>;

/** Writes the tag and body of action 12 or 13. */
export function writeGasKeyAction(w: BorshWriter, action: GasKeyAction): void {
  if (action.type === 'TransferToGasKey') {
    w.u8(TRANSFER_TO_GAS_KEY_TAG);
    writePublicKey(w, action.publicKey);
    w.u128(action.deposit);
  } else {
    w.u8(WITHDRAW_FROM_GAS_KEY_TAG);
    writePublicKey(w, action.publicKey);
    w.u128(action.amount);
  }
}

/** Reads the body of action 12 or 13 (the tag already read). */
export function readGasKeyAction(r: BorshReader, tag: number): GasKeyAction {
  const publicKey = readPublicKey(r);
  return tag === TRANSFER_TO_GAS_KEY_TAG
    ? { type: 'TransferToGasKey', publicKey, deposit: r.u128() }
    : { type: 'WithdrawFromGasKey', publicKey, amount: r.u128() };
}
