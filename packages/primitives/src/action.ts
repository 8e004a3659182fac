/**
 * Borsh of `Action` (core/primitives/src/action/mod.rs, `#[borsh(use_discriminant = true)]`):
 * 0 CreateAccount {}, 1 DeployContract { code: Vec<u8> }, 2 FunctionCall { method_name: String,
 * args: Vec<u8>, gas: u64, deposit: u128 }, 3 Transfer { deposit: u128 }, 4 Stake { stake: u128,
 * public_key }, 5 AddKey { public_key, access_key }, 6 DeleteKey { public_key }, 7 DeleteAccount
 * { beneficiary_id: AccountId }, 8 Delegate(SignedDelegateAction), 12 TransferToGasKey, 13 WithdrawFromGasKey
 * (gas-key-borsh.ts), 14 DelegateV2(VersionedSignedDelegateAction) (delegate-action-v2.ts).
 *
 * 9 DeployGlobalContract { code: Vec<u8>, deploy_mode }, 10 UseGlobalContract { contract_identifier }
 * (global-contract.ts), 11 DeterministicStateInit { state_init, deposit: u128 } (state-init.ts), 12
 * TransferToGasKey, 13 WithdrawFromGasKey (gas-key-borsh.ts), 14 DelegateV2 (delegate-action-v2.ts), 15
 * UniversalStateInit { state_init: Vec<u8>, deposit: u128 } (universal-state-init.ts). Later variants are not
 * represented and are rejected when decoding.
 */
import { readAccessKey, writeAccessKey } from './access-key.js';
import { readAccountId, writeAccountId } from './account-id-borsh.js';
import { type BorshReader, type BorshWriter, decodeBorsh, encodeBorsh } from './borsh.js';
import {
  readVersionedSignedDelegateAction,
  writeVersionedSignedDelegateAction,
} from './delegate-action-v2.js';
import { BorshError } from './errors.js';
import { readGasKeyAction, writeGasKeyAction } from './gas-key-borsh.js';
import {
  readGlobalContractDeployMode,
  readGlobalContractIdentifier,
  writeGlobalContractDeployMode,
  writeGlobalContractIdentifier,
} from './global-contract.js';
import { readPublicKey, readSignature, writePublicKey, writeSignature } from './key-borsh.js';
import { readStateInit, writeStateInit } from './state-init.js';
import type { Action, ActionType, DelegateAction, SignedDelegateAction } from './types.js';

export const ACTION_TAG: Readonly<Record<ActionType, number>> = {
  CreateAccount: 0,
  DeployContract: 1,
  FunctionCall: 2,
  Transfer: 3,
  Stake: 4,
  AddKey: 5,
  DeleteKey: 6,
  DeleteAccount: 7,
  Delegate: 8,
  DeployGlobalContract: 9,
  UseGlobalContract: 10,
  DeterministicStateInit: 11,
  TransferToGasKey: 12,
  WithdrawFromGasKey: 13,
  DelegateV2: 14,
  UniversalStateInit: 15,
};

export function writeAction(w: BorshWriter, action: Action): void {
  switch (action.type) {
    case 'CreateAccount':
      w.u8(0);
      return;
    case 'DeployContract':
      w.u8(1).bytes(action.code);
      return;
    case 'FunctionCall':
      w.u8(2).string(action.methodName).bytes(action.args).u64(action.gas).u128(action.deposit);
      return;
    case 'Transfer':
      w.u8(3).u128(action.deposit);
      return;
    case 'Stake':
      w.u8(4).u128(action.stake);
      writePublicKey(w, action.publicKey);
      return;
    case 'AddKey':
      w.u8(5);
      writePublicKey(w, action.publicKey);
      writeAccessKey(w, action.accessKey);
      return;
    case 'DeleteKey':
      w.u8(6);
      writePublicKey(w, action.publicKey);
      return;
    case 'DeleteAccount':
      w.u8(7);
      writeAccountId(w, action.beneficiaryId);
      return;
    case 'Delegate':
      w.u8(8);
      writeSignedDelegateAction(w, action.signedDelegateAction);
      return;
    case 'DeployGlobalContract':
      w.u8(9).bytes(action.code);
      writeGlobalContractDeployMode(w, action.deployMode);
      return;
    case 'UseGlobalContract':
      w.u8(10);
      writeGlobalContractIdentifier(w, action.contractIdentifier);
      return;
    case 'DeterministicStateInit':
      w.u8(11);
      writeStateInit(w, action.stateInit);
      w.u128(action.deposit);
      return;
    case 'TransferToGasKey':
    case 'WithdrawFromGasKey':
      writeGasKeyAction(w, action);
      return;
    case 'DelegateV2':
      w.u8(14);
      writeVersionedSignedDelegateAction(w, action.signedDelegateAction);
      return;
    case 'UniversalStateInit':
      w.u8(15).bytes(action.stateInit).u128(action.deposit);
      return;
    default:
      throw new BorshError(`unknown action type ${String((action as { type: unknown }).type)}`);
  }
}

export function readAction(r: BorshReader): Action {
  return readActionVariant(r, true);
}

/** `NonDelegateAction`: any action but Delegate and DelegateV2 ("DelegateAction mustn't contain a nested one"). */
export function readNonDelegateAction(r: BorshReader): Action {
  return readActionVariant(r, false);
}

function readActionVariant(r: BorshReader, allowDelegate: boolean): Action {
  const at = r.offset;
  const tag = r.u8();
  switch (tag) {
    case 0:
      return { type: 'CreateAccount' };
    case 1:
      return { type: 'DeployContract', code: r.bytes() };
    case 2:
      return {
        type: 'FunctionCall',
        methodName: r.string(),
        args: r.bytes(),
        gas: r.u64(),
        deposit: r.u128(),
      };
    case 3:
      return { type: 'Transfer', deposit: r.u128() };
    case 4:
      return { type: 'Stake', stake: r.u128(), publicKey: readPublicKey(r) };
    case 5:
      return { type: 'AddKey', publicKey: readPublicKey(r), accessKey: readAccessKey(r) };
    case 6:
      return { type: 'DeleteKey', publicKey: readPublicKey(r) };
    case 7:
      return { type: 'DeleteAccount', beneficiaryId: readAccountId(r) };
    case 8:
      if (!allowDelegate) throw new BorshError("DelegateAction mustn't contain a nested one", at);
      return { type: 'Delegate', signedDelegateAction: readSignedDelegateAction(r) };
    case 9:
      return { type: 'DeployGlobalContract', code: r.bytes(), deployMode: readGlobalContractDeployMode(r) };
    case 10:
      return { type: 'UseGlobalContract', contractIdentifier: readGlobalContractIdentifier(r) };
    case 11:
      return { type: 'DeterministicStateInit', stateInit: readStateInit(r), deposit: r.u128() };
    case 12:
    case 13:
      return readGasKeyAction(r, tag);
    case 14:
      if (!allowDelegate) throw new BorshError("DelegateAction mustn't contain a nested one", at);
      return { type: 'DelegateV2', signedDelegateAction: readVersionedSignedDelegateAction(r) };
    case 15:
      return { type: 'UniversalStateInit', stateInit: r.bytes(), deposit: r.u128() };
    default:
      throw new BorshError(`invalid Action variant ${tag}`, at);
  }
}

/** `DelegateAction { sender_id, receiver_id, actions: Vec<NonDelegateAction>, nonce, max_block_height,
 * public_key }` (core/primitives/src/action/delegate.rs). */
export function writeDelegateAction(w: BorshWriter, delegateAction: DelegateAction): void {
  writeAccountId(w, delegateAction.senderId);
  writeAccountId(w, delegateAction.receiverId);
  w.vec(delegateAction.actions, (w, action) => {
    if (action.type === 'Delegate' || action.type === 'DelegateV2')
      throw new BorshError("DelegateAction mustn't contain a nested one");
    writeAction(w, action);
  });
  w.u64(delegateAction.nonce);
  w.u64(delegateAction.maxBlockHeight);
  writePublicKey(w, delegateAction.publicKey);
}

export function readDelegateAction(r: BorshReader): DelegateAction {
  return {
    senderId: readAccountId(r),
    receiverId: readAccountId(r),
    actions: r.vec(readNonDelegateAction),
    nonce: r.u64(),
    maxBlockHeight: r.u64(),
    publicKey: readPublicKey(r),
  };
}

export function writeSignedDelegateAction(w: BorshWriter, signed: SignedDelegateAction): void {
  writeDelegateAction(w, signed.delegateAction);
  writeSignature(w, signed.signature);
}

export function readSignedDelegateAction(r: BorshReader): SignedDelegateAction {
  return { delegateAction: readDelegateAction(r), signature: readSignature(r) };
}

export function encodeAction(action: Action): Uint8Array {
  return encodeBorsh((w) => writeAction(w, action));
}

export function decodeAction(bytes: Uint8Array): Action {
  return decodeBorsh(bytes, readAction);
}

export function encodeActions(actions: readonly Action[]): Uint8Array {
  return encodeBorsh((w) => w.vec(actions, writeAction));
}

export function decodeActions(bytes: Uint8Array): Action[] {
  return decodeBorsh(bytes, (r) => r.vec(readAction));
}
