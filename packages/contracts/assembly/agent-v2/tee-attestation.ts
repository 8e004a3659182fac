// `register_agent` with `requires_tee: true`: what can be checked on chain of a 2.0 attestation (shade-attestation's
// DstackAttestation: the quote's bytes, Intel's collateral, dstack's tcb_info), in the order the template's
// verification makes its checks. Checked: the quote is a TDX quote v4; its report_data is the caller's implicit
// account (its 32 bytes, zero-padded to 64); its PPID (in plain text, as the local dstack writes it) is approved;
// tcb_info's RTMR3 is the quote's and the event log replays to it, each runtime event's digest recomputed; exactly
// one compose-hash event, equal to tcb_info.compose_hash and to sha256(app_compose); and the quote's MRTD and
// RTMR0-2 (the same in tcb_info), the single key-provider event's digest and the compose hash are one approved
// set of measurements. NOT checked: the quote's signature, its certificate chain to Intel's root, the
// collateral's signatures and the TCB status (the template's dcap verification). The local dstack's quotes are
// simulated and carry no signature that could be checked (docs/tee.md).
import { bytesEqual, utf8 } from "../lib/bytes";
import { sha256 } from "../lib/crypto";
import { fromHex, toHex } from "../lib/hex";
import { asArray, asU64, JsonValue, reqField, reqObject, reqString } from "../lib/json";
import { DSTACK_RUNTIME_EVENT, replayRtmr3, Rtmr3Event, rtmr3Events } from "../tee/event-log";
import { checkTdxQuoteV4, MRTD_OFFSET, plainTextPpid, register48, reportData, rtmr } from "../tee/tdx-quote";
import { measurementsJson } from "./measurements";
import { measurementsSet, ppidsSet } from "./state";

export class TeeVerified {
  constructor(public measurements: string, public ppid: string) {}
}

// AssemblyScript turns only `throw new Error(message)` into a panic with the message: these build messages.
function failed(reason: string): string {
  return "Attestation verification failed: " + reason;
}

/** shade-attestation's WrongHash message. */
function wrongHash(name: string, found: string, expected: string): string {
  return failed("wrong " + name + " hash (found " + found + " expected " + expected + ")");
}

function quoteBytes(a: JsonValue): Uint8Array {
  const items = asArray(reqField(a, "quote", "attestation.quote"), "attestation.quote");
  const b = new Uint8Array(items.length);
  for (let i = 0; i < items.length; i++) b[i] = <u8>asU64(items[i], "attestation.quote[" + i.toString() + "]", 255);
  return b;
}

function tcbHex(t: JsonValue, field: string): string {
  return reqString(t, field, "attestation.tcb_info." + field).toLowerCase();
}

/** The only RTMR3 event named `name` (the template's get_single_event). */
function singleEvent(events: Array<Rtmr3Event>, name: string): Rtmr3Event {
  let found: Rtmr3Event | null = null;
  for (let i = 0; i < events.length; i++) {
    if (events[i].name != name) continue;
    if (found !== null) throw new Error(failed("duplicate " + name + " events in event log"));
    found = events[i];
  }
  if (found === null) throw new Error(failed("no " + name + " event in event log"));
  return found;
}

/** The caller is a 64-hex implicit account (checked by the caller of this function). */
export function verifyTeeAttestation(caller: string, a: JsonValue): TeeVerified {
  const quote = quoteBytes(a);
  if (quote.length == 0) throw new Error(failed("the attestation has no quote (ShadeClient sends an empty one outside a TEE)"));
  checkTdxQuoteV4(quote);

  // report_data = the implicit account's 32 bytes ‖ 32 zero bytes.
  const expected = new Uint8Array(64);
  const id = fromHex(caller);
  if (id === null) throw new Error("Account ID must be implicit account");
  for (let i = 0; i < id.length; i++) expected[i] = id[i];
  const found = reportData(quote);
  if (!bytesEqual(found, expected)) throw new Error(wrongHash("report_data", toHex(found), toHex(expected)));

  const ppidBytes = plainTextPpid(quote);
  if (ppidBytes === null)
    throw new Error(failed("no PPID in plain text in the quote's certification data: this contract reads no PCK certificate"));
  const ppid = toHex(ppidBytes);
  if (!ppidsSet.has(utf8(ppid))) throw new Error(failed("PPID " + ppid + " is not in the allowed PPIDs list"));

  const t = reqObject(a, "tcb_info", "attestation.tcb_info");
  const quoteRtmr3 = toHex(rtmr(quote, 3));
  if (tcbHex(t, "rtmr3") != quoteRtmr3) throw new Error(wrongHash("rtmr3", tcbHex(t, "rtmr3"), quoteRtmr3));
  const events = rtmr3Events(reqField(t, "event_log", "attestation.tcb_info.event_log"), "attestation.tcb_info.event_log");
  for (let i = 0; i < events.length; i++)
    if (events[i].type != DSTACK_RUNTIME_EVENT) throw new Error(failed("invalid event type " + events[i].type.toString()));
  const replayed = toHex(replayRtmr3(events));
  if (replayed != quoteRtmr3) throw new Error(wrongHash("event_log", replayed, quoteRtmr3));

  const composeHash = tcbHex(t, "compose_hash");
  const composeEvent = toHex(singleEvent(events, "compose-hash").payload);
  if (composeEvent != composeHash) throw new Error(wrongHash("app_compose_event", composeEvent, composeHash));
  const appCompose = toHex(sha256(utf8(reqString(t, "app_compose", "attestation.tcb_info.app_compose"))));
  if (appCompose != composeEvent) throw new Error(wrongHash("app_compose_payload", appCompose, composeEvent));

  // The measurements the quote (and tcb_info, which must say the same) shows, against the approved sets.
  const mrtd = toHex(register48(quote, MRTD_OFFSET));
  const r0 = toHex(rtmr(quote, 0));
  const r1 = toHex(rtmr(quote, 1));
  const r2 = toHex(rtmr(quote, 2));
  const keyProvider = toHex(singleEvent(events, "key-provider").digest);
  const m = measurementsJson(mrtd, r0, r1, r2, keyProvider, composeHash);
  const sameInTcbInfo =
    tcbHex(t, "mrtd") == mrtd && tcbHex(t, "rtmr0") == r0 && tcbHex(t, "rtmr1") == r1 && tcbHex(t, "rtmr2") == r2;
  if (!sameInTcbInfo || !measurementsSet.has(utf8(m)))
    throw new Error(wrongHash("expected_measurements", "none matched", "one of the approved measurements"));
  return new TeeVerified(m, ppid);
}
