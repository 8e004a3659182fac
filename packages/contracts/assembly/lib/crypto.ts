// Cryptographic host functions: sha256, ecrecover, ed25519_verify.
import * as env from "./env";
import { len, ptr } from "./bytes";
import { readRegisterOrEmpty, REG } from "./registers";

export function sha256(data: Uint8Array): Uint8Array {
  env.sha256(len(data), ptr(data), REG);
  return readRegisterOrEmpty(REG);
}

/**
 * `ecrecover(hash, sig = r‖s, v, malleability_flag)`: the 64-byte x‖y public key, or null when recovery
 * fails. The host aborts the call on a hash or signature of the wrong length or v > 3, so check those first.
 */
export function ecrecover(hash32: Uint8Array, sig64: Uint8Array, v: u8, malleabilityFlag: bool): Uint8Array | null {
  const ok = env.ecrecover(len(hash32), ptr(hash32), len(sig64), ptr(sig64), <u64>v, malleabilityFlag ? 1 : 0, REG);
  if (ok == 0) return null;
  return readRegisterOrEmpty(REG);
}

export function ed25519Verify(sig64: Uint8Array, message: Uint8Array, publicKey32: Uint8Array): bool {
  return env.ed25519_verify(len(sig64), ptr(sig64), len(message), ptr(message), len(publicKey32), ptr(publicKey32)) == 1;
}
