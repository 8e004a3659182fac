// Measurements and PPIDs as the template's JSON takes and gives them (shade-attestation's FullMeasurementsHex
// and HexBytes<16>): fixed-length hex, either case accepted, kept and shown lowercase. The canonical JSON of a
// set of measurements (serde's field order) is its identity in the approved set and in an agent's record.
import { fromHex, toHex } from "../lib/hex";
import { JsonValue, Kind, quote, reqObject, reqString } from "../lib/json";

/** `bytes` bytes of hex at `path`, lowercased; panics naming the field otherwise. */
export function fixedHex(obj: JsonValue, field: string, path: string, bytes: i32): string {
  const s = reqString(obj, field, path);
  const b = fromHex(s);
  if (b === null || b.length != bytes)
    throw new Error("Invalid argument `" + path + "`: expected " + (bytes * 2).toString() + " hex digits (" + bytes.toString() + " bytes)");
  return toHex(b);
}

/** `{rtmrs: {mrtd, rtmr0, rtmr1, rtmr2}, key_provider_event_digest, app_compose_hash_payload}` as canonical JSON. */
export function canonicalMeasurements(v: JsonValue, path: string): string {
  const rtmrs = reqObject(v, "rtmrs", path + ".rtmrs");
  const r = path + ".rtmrs.";
  return "{\"rtmrs\":{\"mrtd\":" + quote(fixedHex(rtmrs, "mrtd", r + "mrtd", 48)) +
    ",\"rtmr0\":" + quote(fixedHex(rtmrs, "rtmr0", r + "rtmr0", 48)) +
    ",\"rtmr1\":" + quote(fixedHex(rtmrs, "rtmr1", r + "rtmr1", 48)) +
    ",\"rtmr2\":" + quote(fixedHex(rtmrs, "rtmr2", r + "rtmr2", 48)) +
    "},\"key_provider_event_digest\":" + quote(fixedHex(v, "key_provider_event_digest", path + ".key_provider_event_digest", 48)) +
    ",\"app_compose_hash_payload\":" + quote(fixedHex(v, "app_compose_hash_payload", path + ".app_compose_hash_payload", 32)) + "}";
}

/** A PPID (16 bytes of hex), lowercased. */
export function canonicalPpid(v: JsonValue, path: string): string {
  if (v.kind != Kind.String) throw new Error("Invalid argument `" + path + "`: expected a string of 32 hex digits (16 bytes)");
  const b = fromHex(v.text);
  if (b === null || b.length != 16) throw new Error("Invalid argument `" + path + "`: expected 32 hex digits (16 bytes)");
  return toHex(b);
}

const Z48 = "000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000";
const Z32 = "0000000000000000000000000000000000000000000000000000000000000000";

/** The canonical JSON of a set of measurements from its parts (lowercase hex). */
export function measurementsJson(mrtd: string, rtmr0: string, rtmr1: string, rtmr2: string, keyProvider: string, composeHash: string): string {
  return "{\"rtmrs\":{\"mrtd\":\"" + mrtd + "\",\"rtmr0\":\"" + rtmr0 + "\",\"rtmr1\":\"" + rtmr1 + "\",\"rtmr2\":\"" + rtmr2 +
    "\"},\"key_provider_event_digest\":\"" + keyProvider + "\",\"app_compose_hash_payload\":\"" + composeHash + "\"}";
}

/** shade-attestation's mock measurements (all zero), which local mode requires approved. */
export function mockMeasurements(): string {
  return measurementsJson(Z48, Z48, Z48, Z48, Z48, Z32);
}

/** The default PPID (`Ppid::default()`, 16 zero bytes), which local mode requires approved. */
export const DEFAULT_PPID = "00000000000000000000000000000000";
