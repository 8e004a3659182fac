// What a TEE registration can check on chain without a quote verifier (see README "TEE mode"): the TDX
// quote v4 layout, report_data = the caller's account id, checksum = sha256(quote), tcb_info's measurements
// against the quote's, the event log's RTMR3 replay (each dstack runtime event's SHA-384 digest recomputed,
// then rtmr = sha384(rtmr ‖ digest)) against the quote's RTMR3, the compose-hash event in it against
// sha256(app_compose), and the two image digests in app_compose.
import { bytesEqual, utf8 } from "../lib/bytes";
import { sha256 } from "../lib/crypto";
import { fromHex, toHex } from "../lib/hex";
import { asString, JsonValue, Kind, optField, parseJson, reqField } from "../lib/json";
import { DSTACK_RUNTIME_EVENT, replayRtmr3, rtmr3Events } from "../tee/event-log";
import { checkTdxQuoteV4, MRTD_OFFSET, REPORT_DATA_OFFSET, RTMR0_OFFSET, RTMR3_OFFSET } from "../tee/tdx-quote";

export class TeeRegistration {
  constructor(public apiImage: string, public appImage: string, public checksum: string) {}
}

/** Where the line holding `from` ends: the first newline or escaped `\n` after it, or -1. */
function lineEndFrom(text: string, from: i32): i32 {
  const newline = text.indexOf("\n", from);
  const escaped = text.indexOf("\\n", from);
  if (newline < 0) return escaped;
  if (escaped < 0) return newline;
  return newline < escaped ? newline : escaped;
}

/** The sha256 digest after `tag`: the next `image: …@sha256:<64 hex>` in the compose text. */
function imageDigestAfter(compose: string, tag: string): string {
  const at = compose.indexOf(tag);
  if (at < 0) throw new Error("tcb_info.app_compose: no `" + tag + "` comment");
  const image = compose.indexOf("image:", at);
  if (image < 0) throw new Error("tcb_info.app_compose: no image after `" + tag + "`");
  const digest = compose.indexOf("@sha256:", image);
  // The image line ends at a newline, or at an escaped `\n` when the compose file sits inside JSON text
  // (dstack's app-compose.json).
  const lineEnd = lineEndFrom(compose, image);
  if (digest < 0 || (lineEnd >= 0 && digest > lineEnd))
    throw new Error("tcb_info.app_compose: the image after `" + tag + "` is not pinned by @sha256 digest");
  const hex = compose.substring(digest + 8, digest + 8 + 64);
  const bytes = fromHex(hex);
  if (hex.length != 64 || bytes === null) throw new Error("tcb_info.app_compose: invalid sha256 digest after `" + tag + "`");
  return hex.toLowerCase();
}

function countOf(s: string, needle: string): i32 {
  let n = 0;
  let at = s.indexOf(needle);
  while (at >= 0) {
    n++;
    at = s.indexOf(needle, at + needle.length);
  }
  return n;
}

/** `tcb_info.<name>`, when given, must equal the 48 bytes of the quote at `offset`. */
function checkClaimed(info: JsonValue, name: string, quote: Uint8Array, offset: i32): void {
  const v = optField(info, name);
  if (v === null) return;
  if (asString(v, "tcb_info." + name).toLowerCase() != toHex(quote.subarray(offset, offset + 48)))
    throw new Error("tcb_info: " + name + " does not match the quote");
}

export function checkTeeRegistration(
  predecessor: string, quoteHex: string, collateral: string, checksum: string, tcbInfo: JsonValue,
): TeeRegistration {
  const quote = fromHex(quoteHex.startsWith("0x") ? quoteHex.substring(2) : quoteHex);
  if (quote === null) throw new Error("Invalid argument `quote_hex`: not a hex string");
  checkTdxQuoteV4(quote);

  // report_data: the caller's account id as bytes (64 for an implicit account), zero-padded to 64 bytes.
  const id = utf8(predecessor);
  if (id.length > 64) throw new Error("Invalid TDX quote: report_data does not match the caller");
  for (let i = 0; i < 64; i++) {
    const expected: u8 = i < id.length ? id[i] : 0;
    if (quote[REPORT_DATA_OFFSET + i] != expected) throw new Error("Invalid TDX quote: report_data does not match the caller");
  }

  const digest = toHex(sha256(quote));
  if (checksum.toLowerCase() != digest) throw new Error("Invalid checksum: expected sha256 of the quote, " + digest);

  const col = parseJson(utf8(collateral));
  if (col.kind != Kind.Object) throw new Error("Invalid argument `collateral`: expected a JSON object");

  let info = tcbInfo;
  if (info.kind == Kind.String) info = parseJson(utf8(info.text));
  if (info.kind != Kind.Object) throw new Error("Invalid argument `tcb_info`: expected a JSON object");
  const compose = asString(reqField(info, "app_compose", "tcb_info.app_compose"), "tcb_info.app_compose");

  // The measurements tcb_info claims must be the quote's.
  checkClaimed(info, "mrtd", quote, MRTD_OFFSET);
  for (let i = 0; i < 4; i++) checkClaimed(info, "rtmr" + i.toString(), quote, RTMR0_OFFSET + 48 * i);

  // RTMR3 replayed from the event log must be the quote's, and its compose-hash event must name this compose
  // file: a log whose compose-hash payload was changed no longer replays to the quote.
  const events = rtmr3Events(optField(info, "event_log"), "tcb_info.event_log");
  const composeHash = toHex(sha256(utf8(compose)));
  let composeEvents = 0;
  for (let i = 0; i < events.length; i++) {
    const e = events[i];
    if (e.type != DSTACK_RUNTIME_EVENT || e.name != "compose-hash") continue;
    composeEvents++;
    if (toHex(e.payload) != composeHash) throw new Error("tcb_info: the compose-hash event does not match sha256(app_compose)");
  }
  const rtmr3 = replayRtmr3(events);
  if (composeEvents == 0) throw new Error("tcb_info: no compose-hash event");
  if (composeEvents > 1) throw new Error("tcb_info: more than one compose-hash event");
  if (!bytesEqual(rtmr3, quote.subarray(RTMR3_OFFSET, RTMR3_OFFSET + 48)))
    throw new Error("tcb_info: the event log does not replay to the quote's RTMR3");

  if (countOf(compose, "image:") != 2) throw new Error("tcb_info.app_compose: expected exactly two images");
  const api = imageDigestAfter(compose, "#shade-agent-api-image");
  const app = imageDigestAfter(compose, "#shade-agent-app-image");
  return new TeeRegistration(api, app, digest);
}
