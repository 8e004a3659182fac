/**
 * Delegate actions (NEP-366 meta transactions) and their NEP-461 signature: the signer signs
 * sha256(borsh(SignableMessage)) = sha256(u32_le(2^30 + 366) ‖ borsh(DelegateAction))
 * (core/primitives/src/signable_message.rs, `MessageDiscriminant` for NEP-366; `get_nep461_hash`).
 */
import { readSignedDelegateAction, writeDelegateAction, writeSignedDelegateAction } from './action.js';
import { decodeBorsh, encodeBorsh } from './borsh.js';
import { sha256 } from './hash.js';
import type { KeyPair } from './key-pair.js';
import type { DelegateAction, SignedDelegateAction } from './types.js';
import { verifySignature } from './verify-signature.js';

/** 2^30 (the base of on-chain actionable messages) + 366 (the NEP number). */
export const DELEGATE_ACTION_PREFIX = 2 ** 30 + 366;

export function encodeDelegateAction(delegateAction: DelegateAction): Uint8Array {
  return encodeBorsh((w) => writeDelegateAction(w, delegateAction));
}

/** The bytes that are hashed and signed: the NEP-461 prefix, then the delegate action. */
export function encodeSignableDelegateAction(delegateAction: DelegateAction): Uint8Array {
  return encodeBorsh((w) => {
    w.u32(DELEGATE_ACTION_PREFIX);
    writeDelegateAction(w, delegateAction);
  });
}

export function delegateActionHash(delegateAction: DelegateAction): Uint8Array {
  return sha256(encodeSignableDelegateAction(delegateAction));
}

export function signDelegateAction(delegateAction: DelegateAction, keyPair: KeyPair): SignedDelegateAction {
  return { delegateAction, signature: keyPair.sign(delegateActionHash(delegateAction)) };
}

/** `SignedDelegateAction::verify`: the signature over the NEP-461 hash, by the delegate action's key. */
export function verifySignedDelegateAction(signed: SignedDelegateAction): boolean {
  return verifySignature(
    delegateActionHash(signed.delegateAction),
    signed.signature,
    signed.delegateAction.publicKey,
  );
}

export function encodeSignedDelegateAction(signed: SignedDelegateAction): Uint8Array {
  return encodeBorsh((w) => writeSignedDelegateAction(w, signed));
}

export function decodeSignedDelegateAction(bytes: Uint8Array): SignedDelegateAction {
  return decodeBorsh(bytes, readSignedDelegateAction);
}
