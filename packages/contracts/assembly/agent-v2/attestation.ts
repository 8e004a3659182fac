// `register_agent`'s attestation (shade-attestation's DstackAttestation, the shape ShadeClient sends: its
// fake one outside a TEE has an empty quote and collateral and zero RTMRs) and what each mode checks.
import { predecessorAccountId } from "../lib/context";
import { utf8 } from "../lib/bytes";
import { asArray, JsonValue, reqField, reqObject, reqString } from "../lib/json";
import { fromHex } from "../lib/hex";
import { isImplicitAccount } from "./account-id";
import { fixedHex, DEFAULT_PPID, mockMeasurements } from "./measurements";
import { measurementsSet, ppidsSet, requiresTee, whitelist } from "./state";

/** The attestation's fields must have the template's types (it would not deserialise otherwise). */
export function checkAttestationShape(args: JsonValue): void {
  const a = reqObject(args, "attestation");
  asArray(reqField(a, "quote", "attestation.quote"), "attestation.quote");
  reqObject(a, "collateral", "attestation.collateral");
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

export function verifyAttestation(): Verified {
  const caller = predecessorAccountId();
  if (requiresTee()) {
    if (!isImplicitAccount(caller)) throw new Error("Account ID must be implicit account");
    // The TDX quote, its collateral and the measurements it implies are not verified by this build.
    throw new Error(
      "Attestation verification failed: TEE attestation verification is not available in this build of Shadebox's 2.0 agent contract (requires_tee: true); use requires_tee: false (local mode) with whitelist_agent_for_local",
    );
  }
  if (!whitelist.has(utf8(caller))) throw new Error("Agent needs to be whitelisted for local mode");
  const mock = mockMeasurements();
  if (!measurementsSet.has(utf8(mock))) throw new Error("Default measurements must be approved for local mode");
  if (!ppidsSet.has(utf8(DEFAULT_PPID))) throw new Error("Default PPID must be approved for local mode");
  return new Verified(mock, DEFAULT_PPID);
}
