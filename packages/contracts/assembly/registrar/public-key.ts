// A public key as NEAR writes it ("ed25519:<base58>", "secp256k1:<base58>", or bare base58 for ed25519),
// to the borsh PublicKey the add-key host function takes: the key type byte, then the key.
import { base58Decode } from "../lib/base58";

/** The borsh bytes of `text`, or null when it is not a well-formed key. */
export function parsePublicKey(text: string): Uint8Array | null {
  let type: u8 = 0;
  let size = 32;
  let data = text;
  const colon = text.indexOf(":");
  if (colon >= 0) {
    const prefix = text.substring(0, colon);
    data = text.substring(colon + 1);
    if (prefix == "secp256k1") {
      type = 1;
      size = 64;
    } else if (prefix != "ed25519") return null;
  }
  const bytes = base58Decode(data);
  if (bytes === null || bytes.length != size) return null;
  const out = new Uint8Array(1 + size);
  out[0] = type;
  out.set(bytes!, 1);
  return out;
}
