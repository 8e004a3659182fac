// Root keys and NEAR's key derivation (tweak = sha3_256(prefix ‖ predecessor ‖ "," ‖ path)):
// secp256k1 derived = root + G·tweak (big-endian), ed25519 derived = root + B·(tweak LE mod ℓ).
import { ed25519DerivePublicKey } from "../crypto/ed25519";
import { secp256k1DeriveRecoverInput } from "../crypto/secp256k1";
import { sha3_256 } from "../crypto/sha3";
import { base58Decode, base58Encode } from "../lib/base58";
import { utf8 } from "../lib/bytes";
import { ecrecover } from "../lib/crypto";
import { key, storageRead, storageWrite } from "../lib/storage";

export const TWEAK_PREFIX = "near-mpc-recovery v0.1.0 epsilon derivation:";
export const DOMAIN_SECP256K1: u64 = 0;
export const DOMAIN_ED25519: u64 = 1;

export function deriveTweak(predecessor: string, path: string): Uint8Array {
  return sha3_256(utf8(TWEAK_PREFIX + predecessor + "," + path));
}

/** Parses "secp256k1:<base58 of 64>" / "ed25519:<base58 of 32>"; throws naming `field` otherwise. */
export function parseNajKey(s: string, curve: string, size: i32, field: string): Uint8Array {
  const prefix = curve + ":";
  if (!s.startsWith(prefix)) throw new Error("Invalid argument `" + field + "`: expected \"" + prefix + "<base58>\"");
  const bytes = base58Decode(s.substring(prefix.length));
  if (bytes === null || bytes.length != size)
    throw new Error("Invalid argument `" + field + "`: expected base58 of " + size.toString() + " bytes");
  return bytes;
}

export function najKey(curve: string, bytes: Uint8Array): string {
  return curve + ":" + base58Encode(bytes);
}

export function storeRootKeys(secp: Uint8Array, ed: Uint8Array): void {
  storageWrite(key("k0"), secp);
  storageWrite(key("k1"), ed);
}

/** The root key of `domain` (64-byte x‖y or 32-byte point), or null for an unknown domain. */
export function rootKey(domain: u64): Uint8Array | null {
  if (domain > DOMAIN_ED25519) return null;
  return storageRead(key(domain == DOMAIN_SECP256K1 ? "k0" : "k1"));
}

/** root + G·tweak as 64-byte x‖y, through the crypto helper and one `ecrecover`; null if not derivable. */
export function deriveSecp256k1(root: Uint8Array, tweak: Uint8Array): Uint8Array | null {
  const input = secp256k1DeriveRecoverInput(root, tweak);
  if (input.length != 97) return null;
  return ecrecover(input.subarray(0, 32), input.subarray(32, 96), input[96], false);
}

/** root + B·(tweak mod ℓ) as a compressed 32-byte point; null if not derivable. */
export function deriveEd25519(root: Uint8Array, tweak: Uint8Array): Uint8Array | null {
  const out = ed25519DerivePublicKey(root, tweak);
  return out.length == 32 ? out : null;
}
