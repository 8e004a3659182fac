/**
 * `DelegateV2` (action 14, NEP-611 meta transactions with gas-key nonces; core/primitives/src/action/delegate.rs).
 *
 * Borsh: `VersionedSignedDelegateAction { delegate_action: VersionedDelegateActionPayload, signature }`, the
 * payload an enum whose only variant is `V2(DelegateActionV2)` = 0, and `DelegateActionV2 { sender_id,
 * receiver_id, actions: Vec<NonDelegateAction>, nonce: TransactionNonce, max_block_height, public_key }`.
 * The signer signs sha256(u32_le(2^30 + 611) ‖ borsh(payload)): NEP-461 with the NEP-611 discriminant, over
 * the versioned payload (its tag included), so a V1 signature never verifies for a V2 action.
 * JSON (`ActionView::DelegateV2` and serde alike): `{ "delegate_action": { "V2": { …, "nonce": {"Nonce":
 * {"nonce": n}} } }, "signature": "…" }`, the inner actions in `Action`'s serde form as in V1.
 */
import { readAccountId, writeAccountId } from './account-id-borsh.js';
import { readNonDelegateAction, writeAction } from './action.js';
import { type BorshReader, type BorshWriter, encodeBorsh } from './borsh.js';
import { BorshError, InvalidViewError } from './errors.js';
import { sha256 } from './hash.js';
import { readPublicKey, readSignature, writePublicKey, writeSignature } from './key-borsh.js';
import type { KeyPair } from './key-pair.js';
import { parsePublicKey, parseSignature, publicKeyToString, signatureToString } from './keys.js';
import {
  readTransactionNonce,
  type TransactionNonceJson,
  transactionNonceFromJson,
  transactionNonceToJson,
  writeTransactionNonce,
} from './transaction-nonce.js';
import type { Action, DelegateActionV2, VersionedSignedDelegateAction } from './types.js';
import { verifySignature } from './verify-signature.js';

/** 2^30 (on-chain actionable messages) + 611 (NEP-611, gas keys): `SignableMessageType::DelegateActionV2`. */
export const DELEGATE_ACTION_V2_PREFIX = 2 ** 30 + 611;
/** `VersionedDelegateActionPayload::V2`. */
const PAYLOAD_V2 = 0;

export function isDelegateAction(action: Action): boolean {
  return action.type === 'Delegate' || action.type === 'DelegateV2';
}

export function writeDelegateActionV2Payload(w: BorshWriter, d: DelegateActionV2): void {
  w.u8(PAYLOAD_V2);
  writeAccountId(w, d.senderId);
  writeAccountId(w, d.receiverId);
  w.vec(d.actions, (w, action) => {
    if (isDelegateAction(action)) throw new BorshError("DelegateAction mustn't contain a nested one");
    writeAction(w, action);
  });
  writeTransactionNonce(w, d.nonce);
  w.u64(d.maxBlockHeight);
  writePublicKey(w, d.publicKey);
}

export function readDelegateActionV2Payload(r: BorshReader): DelegateActionV2 {
  r.enumTag('VersionedDelegateActionPayload', 1);
  return {
    senderId: readAccountId(r),
    receiverId: readAccountId(r),
    actions: r.vec(readNonDelegateAction),
    nonce: readTransactionNonce(r),
    maxBlockHeight: r.u64(),
    publicKey: readPublicKey(r),
  };
}

export function writeVersionedSignedDelegateAction(w: BorshWriter, s: VersionedSignedDelegateAction): void {
  writeDelegateActionV2Payload(w, s.delegateAction);
  writeSignature(w, s.signature);
}

export function readVersionedSignedDelegateAction(r: BorshReader): VersionedSignedDelegateAction {
  return { delegateAction: readDelegateActionV2Payload(r), signature: readSignature(r) };
}

export function delegateActionV2Hash(d: DelegateActionV2): Uint8Array {
  return sha256(
    encodeBorsh((w) => {
      w.u32(DELEGATE_ACTION_V2_PREFIX);
      writeDelegateActionV2Payload(w, d);
    }),
  );
}

export function signDelegateActionV2(d: DelegateActionV2, keyPair: KeyPair): VersionedSignedDelegateAction {
  return { delegateAction: d, signature: keyPair.sign(delegateActionV2Hash(d)) };
}

export function verifyVersionedSignedDelegateAction(s: VersionedSignedDelegateAction): boolean {
  return verifySignature(delegateActionV2Hash(s.delegateAction), s.signature, s.delegateAction.publicKey);
}

export interface DelegateActionV2View {
  sender_id: string;
  receiver_id: string;
  actions: unknown[];
  nonce: TransactionNonceJson;
  max_block_height: number;
  public_key: string;
}

export interface VersionedSignedDelegateActionView {
  delegate_action: { V2: DelegateActionV2View };
  signature: string;
}

/** `toJson` is views.ts's `actionToJson` (passed in to keep this module below views.ts). */
export function versionedSignedDelegateActionToView(
  s: VersionedSignedDelegateAction,
  toJson: (action: Action) => unknown,
): VersionedSignedDelegateActionView {
  const d = s.delegateAction;
  return {
    delegate_action: {
      V2: {
        sender_id: d.senderId,
        receiver_id: d.receiverId,
        actions: d.actions.map(toJson),
        nonce: transactionNonceToJson(d.nonce),
        max_block_height: Number(d.maxBlockHeight),
        public_key: publicKeyToString(d.publicKey),
      },
    },
    signature: signatureToString(s.signature),
  };
}

function field(o: Record<string, unknown>, name: string, path: string): unknown {
  if (!(name in o)) throw new InvalidViewError(`${path}.${name}`, 'missing field');
  return o[name];
}

function object(v: unknown, path: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v))
    throw new InvalidViewError(path, 'expected an object');
  return v as Record<string, unknown>;
}

function u64(v: unknown, path: string): bigint {
  if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return BigInt(v);
  if (typeof v === 'bigint' && v >= 0n && v < 2n ** 64n) return v;
  throw new InvalidViewError(path, 'expected a non-negative integer');
}

function text(v: unknown, path: string): string {
  if (typeof v !== 'string') throw new InvalidViewError(path, 'expected a string');
  return v;
}

/** The reverse of `versionedSignedDelegateActionToView`; `fromJson` is views.ts's `actionFromJson`. */
export function versionedSignedDelegateActionFromView(
  view: unknown,
  fromJson: (json: unknown, path: string) => Action,
  accountId: (v: unknown, path: string) => string,
  path = 'signed_delegate_action',
): VersionedSignedDelegateAction {
  const o = object(view, path);
  const payload = object(field(o, 'delegate_action', path), `${path}.delegate_action`);
  const names = Object.keys(payload);
  if (names.length !== 1 || names[0] !== 'V2')
    throw new InvalidViewError(`${path}.delegate_action`, 'expected the variant "V2"');
  const p = `${path}.delegate_action.V2`;
  const d = object(payload.V2, p);
  const actions = field(d, 'actions', p);
  if (!Array.isArray(actions)) throw new InvalidViewError(`${p}.actions`, 'expected an array');
  let publicKey: DelegateActionV2['publicKey'];
  let signature: VersionedSignedDelegateAction['signature'];
  try {
    publicKey = parsePublicKey(text(field(d, 'public_key', p), `${p}.public_key`));
  } catch (e) {
    throw e instanceof InvalidViewError ? e : new InvalidViewError(`${p}.public_key`, 'invalid public key');
  }
  try {
    signature = parseSignature(text(field(o, 'signature', path), `${path}.signature`));
  } catch (e) {
    throw e instanceof InvalidViewError ? e : new InvalidViewError(`${path}.signature`, 'invalid signature');
  }
  return {
    delegateAction: {
      senderId: accountId(field(d, 'sender_id', p), `${p}.sender_id`),
      receiverId: accountId(field(d, 'receiver_id', p), `${p}.receiver_id`),
      actions: actions.map((a, i) => fromJson(a, `${p}.actions[${i}]`)),
      nonce: transactionNonceFromJson(field(d, 'nonce', p), `${p}.nonce`),
      maxBlockHeight: u64(field(d, 'max_block_height', p), `${p}.max_block_height`),
      publicKey,
    },
    signature,
  };
}
