/**
 * `ml_dsa_verify(sig, msg, pk)` (protocol 87, nearcore #16104): ML-DSA-65 (FIPS 204) verification of `msg`
 * itself — pure ML-DSA with the empty context string, as nearcore checks ML-DSA-65 transaction signatures —
 * with the verifier the node already uses for those (@shadebox/primitives).
 *
 * The length checks are split because nearcore makes them at different points of the host function: the
 * signature's right after it is read, the key's after the message has been read and paid for (the caller
 * runs them in that order). A key of the right length that does not decode, or any bad signature of the
 * right length, verifies as false; a wrong length is a `MlDsaVerifyInvalidInput` host error.
 */
import { verifyMlDsa65 } from '@shadebox/primitives';
import { hostError } from '../vm-errors.js';

export const ML_DSA_65_SIGNATURE_LENGTH = 3309;
export const ML_DSA_65_PUBLIC_KEY_LENGTH = 1952;

export function checkMlDsaSignatureLength(sig: Uint8Array): void {
  if (sig.length !== ML_DSA_65_SIGNATURE_LENGTH)
    throw hostError.mlDsaVerifyInvalidInput('invalid signature length');
}

export function checkMlDsaPublicKeyLength(pk: Uint8Array): void {
  if (pk.length !== ML_DSA_65_PUBLIC_KEY_LENGTH)
    throw hostError.mlDsaVerifyInvalidInput('invalid public key length');
}

/** Both lengths checked (in nearcore's order), then the verification. */
export function mlDsaVerify(sig: Uint8Array, msg: Uint8Array, pk: Uint8Array): boolean {
  checkMlDsaSignatureLength(sig);
  checkMlDsaPublicKeyLength(pk);
  return verifyMlDsa65(msg, sig, pk);
}
