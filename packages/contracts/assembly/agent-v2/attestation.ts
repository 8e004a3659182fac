// `register_agent`'s attestation (shade-attestation's DstackAttestation, the shape ShadeClient sends: its
// fake one outside a TEE has an empty quote and collateral and zero RTMRs) and what each mode checks: local mode
// the whitelist and the mock approvals, TEE mode the attestation itself (./tee-attestation.ts).
import { predecessorAccountId } from "../lib/context";
import { utf8 } from "../lib/bytes";
import { asArray, asU64, JsonValue, reqField, reqObject, reqString } from "../lib/json";
import { fromHex } from "../lib/hex";
import { isImplicitAccount } from "./account-id";
import { fixedHex, DEFAULT_PPID, mockMeasurements } from "./measurements";
import { measurementsSet, ppidsSet, requiresTee, whitelist } from "./state";
import { verifyTeeAttestation } from "./tee-attestation";

/** shade-attestation's Collateral from JSON: these strings, the four byte fields in hex. */
const COLLATERAL_TEXT = ["pck_crl_issuer_chain", "tcb_info_issuer_chain", "tcb_info", "qe_identity_issuer_chain", "qe_identity"];
const COLLATERAL_HEX = ["root_ca_crl", "pck_crl", "tcb_info_signature", "qe_identity_signature"];

/** The attestation's fields must have the template's types (it would not deserialise otherwise). */
export function checkAttestationShape(args: JsonValue): void {
  const a = reqObject(args, "attestation");
  const quote = asArray(reqField(a, "quote", "attestation.quote"), "attestation.quote");
  for (let i = 0; i < quote.length; i++) asU64(quote[i], "attestation.quote[" + i.toString() + "]", 255);
  const c = reqObject(a, "collateral", "attestation.collateral");
  for (let i = 0; i < COLLATERAL_TEXT.length; i++) reqString(c, COLLATERAL_TEXT[i], "attestation.collateral." + COLLATERAL_TEXT[i]);
  for (let i = 0; i < COLLATERAL_HEX.length; i++) {
    const path = "attestation.collateral." + COLLATERAL_HEX[i];
    if (fromHex(reqString(c, COLLATERAL_HEX[i], path)) === null) throw new Error("Invalid argument `" + path + "`: expected hex");
  }
  const t = reqObject(a, "tcb_info", "attestation.tcb_info");
  const p = "attestation.tcb_info.";
  fixedHex(t, "mrtd", p + "mrtd", 48);
  fixedHex(t, "rtmr0", p + "rtmr0", 48);
  fixedHex(t, "rtmr1", p + "rtmr1", 48);
  fixedHex(t, "rtmr2", p + "rtmr2", 48);
  fixedHex(t, "rtmr3", p + "rtmr3", 48);
  fixedHex(t, "compose_hash", p + "compose_hash", 32);
  fixedHex(t, "device_id", p + "device_id", 32);
  const os = reqString(t, "os_image_hash", p + "os_image_hash");
  if (os.length > 0) {
    const b = fromHex(os);
    if (b === null || b.length != 32) throw new Error("Invalid argument `" + p + "os_image_hash`: expected \"\" or 64 hex digits (32 bytes)");
  }
  reqString(t, "app_compose", p + "app_compose");
  asArray(reqField(t, "event_log", p + "event_log"), p + "event_log");
}

/** The measurements and PPID the caller registers with (the template's `verify_attestation`). */
export class Verified {
  constructor(public measurements: string, public ppid: string) {}
}

export function verifyAttestation(args: JsonValue): Verified {
  const caller = predecessorAccountId();
  if (requiresTee()) {
    if (!isImplicitAccount(caller)) throw new Error("Account ID must be implicit account");
    const v = verifyTeeAttestation(caller, reqObject(args, "attestation"));
    return new Verified(v.measurements, v.ppid);
  }
  if (!whitelist.has(utf8(caller))) throw new Error("Agent needs to be whitelisted for local mode");
  const mock = mockMeasurements();
  if (!measurementsSet.has(utf8(mock))) throw new Error("Default measurements must be approved for local mode");
  if (!ppidsSet.has(utf8(DEFAULT_PPID))) throw new Error("Default PPID must be approved for local mode");
  return new Verified(mock, DEFAULT_PPID);
}
