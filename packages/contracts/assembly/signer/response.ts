// SignatureResponse: parsing (hex case-insensitive), the canonical JSON NEAR's contract returns (lowercase
// hex), and verification under the derived key.
import { ecrecover, ed25519Verify } from "../lib/crypto";
import { bytesEqual } from "../lib/bytes";
import { fromHex, toHex } from "../lib/hex";
import { asArray, asString, asU64, byteArray, JsonValue, Kind, quote, reqField, reqObject, reqString } from "../lib/json";

export class SignatureResponse {
  /** Secp256k1: big_r (33 bytes SEC1 compressed), s (32), recovery_id. Ed25519: signature (64). */
  constructor(
    public ed25519: bool,
    public bigR: Uint8Array,
    public s: Uint8Array,
    public recoveryId: u64,
    public signature: Uint8Array,
  ) {}

  toJson(): string {
    if (this.ed25519) return "{\"scheme\":\"Ed25519\",\"signature\":" + byteArray(this.signature) + "}";
    return "{\"scheme\":\"Secp256k1\",\"big_r\":{\"affine_point\":" + quote(toHex(this.bigR)) +
      "},\"s\":{\"scalar\":" + quote(toHex(this.s)) + "},\"recovery_id\":" + this.recoveryId.toString() + "}";
  }

  /** ECDSA: ecrecover(payload, r‖s, recovery_id, low-S required) must give `derived` (64-byte x‖y). */
  verifyEcdsa(payload: Uint8Array, derived: Uint8Array): bool {
    if (this.recoveryId > 3 || payload.length != 32) return false;
    if (this.bigR[0] != 2 && this.bigR[0] != 3) return false;
    const sig = new Uint8Array(64);
    sig.set(this.bigR.subarray(1, 33), 0);
    sig.set(this.s, 32);
    const recovered = ecrecover(payload, sig, <u8>this.recoveryId, true);
    return recovered !== null && bytesEqual(recovered, derived);
  }

  verifyEddsa(message: Uint8Array, derived: Uint8Array): bool {
    return ed25519Verify(this.signature, message, derived);
  }
}

function hexField(obj: JsonValue, field: string, path: string, size: i32): Uint8Array {
  const b = fromHex(reqString(obj, field, path));
  if (b === null || b.length != size)
    throw new Error("Invalid argument `" + path + "`: expected " + size.toString() + " bytes of hex");
  return b;
}

export function parseSignatureResponse(v: JsonValue, path: string): SignatureResponse {
  if (v.kind != Kind.Object) throw new Error("Invalid argument `" + path + "`: expected an object");
  const scheme = asString(reqField(v, "scheme", path + ".scheme"), path + ".scheme");
  if (scheme == "Secp256k1") {
    const bigR = hexField(reqObject(v, "big_r", path + ".big_r"), "affine_point", path + ".big_r.affine_point", 33);
    const s = hexField(reqObject(v, "s", path + ".s"), "scalar", path + ".s.scalar", 32);
    const recoveryId = asU64(reqField(v, "recovery_id", path + ".recovery_id"), path + ".recovery_id", 255);
    return new SignatureResponse(false, bigR, s, recoveryId, new Uint8Array(0));
  }
  if (scheme == "Ed25519") {
    const items = asArray(reqField(v, "signature", path + ".signature"), path + ".signature");
    if (items.length != 64) throw new Error("Invalid argument `" + path + ".signature`: expected 64 numbers");
    const sig = new Uint8Array(64);
    for (let i = 0; i < 64; i++) sig[i] = <u8>asU64(items[i], path + ".signature", 255);
    return new SignatureResponse(true, new Uint8Array(0), new Uint8Array(0), 0, sig);
  }
  throw new Error("Invalid argument `" + path + ".scheme`: unknown scheme `" + scheme + "`, expected `Secp256k1` or `Ed25519`");
}
