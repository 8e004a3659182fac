// SignatureRequest {tweak, payload, domain_id}: parsing, its canonical JSON (also the key of the pending
// map) and the payload enum {"Ecdsa": hex32} | {"Eddsa": hex ≤ 1232 bytes}.
import { fromHex, toHex } from "../lib/hex";
import { asString, asU64, JsonValue, Kind, quote, reqField } from "../lib/json";

export const MAX_EDDSA_PAYLOAD: i32 = 1232;

export class Payload {
  constructor(public eddsa: bool, public bytes: Uint8Array) {}

  toJson(): string {
    return "{" + quote(this.eddsa ? "Eddsa" : "Ecdsa") + ":" + quote(toHex(this.bytes)) + "}";
  }
}

/** `{"Ecdsa": "<hex 32>"}` or `{"Eddsa": "<hex ≤ 1232 bytes>"}`. */
export function parsePayload(v: JsonValue, path: string): Payload {
  if (v.kind != Kind.Object || v.keys.length != 1)
    throw new Error("Invalid argument `" + path + "`: expected {\"Ecdsa\": \"<hex>\"} or {\"Eddsa\": \"<hex>\"}");
  const variant = v.keys[0];
  const sub = path + "." + variant;
  if (variant != "Ecdsa" && variant != "Eddsa")
    throw new Error("Invalid argument `" + path + "`: unknown variant `" + variant + "`, expected `Ecdsa` or `Eddsa`");
  const bytes = fromHex(asString(v.items[0], sub));
  if (bytes === null) throw new Error("Invalid argument `" + sub + "`: not a hex string");
  if (variant == "Ecdsa") {
    if (bytes.length != 32)
      throw new Error("Invalid argument `" + sub + "`: expected exactly 32 bytes, got " + bytes.length.toString());
    return new Payload(false, bytes);
  }
  if (bytes.length > MAX_EDDSA_PAYLOAD)
    throw new Error("Invalid argument `" + sub + "`: at most 1232 bytes, got " + bytes.length.toString());
  return new Payload(true, bytes);
}

export class SignatureRequest {
  constructor(public tweak: Uint8Array, public payload: Payload, public domainId: u64) {}

  toJson(): string {
    return "{\"tweak\":" + quote(toHex(this.tweak)) + ",\"payload\":" + this.payload.toJson() +
      ",\"domain_id\":" + this.domainId.toString() + "}";
  }
}

export function parseSignatureRequest(v: JsonValue, path: string): SignatureRequest {
  if (v.kind != Kind.Object) throw new Error("Invalid argument `" + path + "`: expected an object");
  const tweakPath = path + ".tweak";
  const tweak = fromHex(asString(reqField(v, "tweak", tweakPath), tweakPath));
  if (tweak === null || tweak.length != 32) throw new Error("Invalid argument `" + tweakPath + "`: expected 32 bytes of hex");
  const payload = parsePayload(reqField(v, "payload", path + ".payload"), path + ".payload");
  const domainId = asU64(reqField(v, "domain_id", path + ".domain_id"), path + ".domain_id");
  return new SignatureRequest(tweak, payload, domainId);
}
