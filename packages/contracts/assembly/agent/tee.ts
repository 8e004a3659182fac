// What a TEE registration can check on chain without a quote verifier (see README "TEE mode"):
// the TDX quote v4 layout, report_data = the caller's account id, checksum = sha256(quote), the compose
// hash event against sha256(app_compose), RTMR3 of tcb_info against the quote, and the two image digests.
import { utf8 } from "../lib/bytes";
import { sha256 } from "../lib/crypto";
import { fromHex, toHex } from "../lib/hex";
import { asString, JsonValue, Kind, optField, parseJson, reqField } from "../lib/json";

const HEADER_LEN: i32 = 48;
const TD_REPORT_LEN: i32 = 584;
const RTMR3_OFFSET: i32 = HEADER_LEN + 472;
const REPORT_DATA_OFFSET: i32 = HEADER_LEN + 520;
const TEE_TYPE_TDX: u32 = 0x81;

export class TeeRegistration {
  constructor(public apiImage: string, public appImage: string, public checksum: string) {}
}

function u16le(b: Uint8Array, at: i32): u32 {
  return <u32>b[at] | (<u32>b[at + 1] << 8);
}

function u32le(b: Uint8Array, at: i32): u32 {
  return u16le(b, at) | (u16le(b, at + 2) << 16);
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

export function checkTeeRegistration(
  predecessor: string, quoteHex: string, collateral: string, checksum: string, tcbInfo: JsonValue,
): TeeRegistration {
  const quote = fromHex(quoteHex.startsWith("0x") ? quoteHex.substring(2) : quoteHex);
  if (quote === null) throw new Error("Invalid argument `quote_hex`: not a hex string");
  if (quote.length < HEADER_LEN + TD_REPORT_LEN + 4) throw new Error("Invalid TDX quote: too short");
  if (u16le(quote, 0) != 4) throw new Error("Invalid TDX quote: version " + u16le(quote, 0).toString() + ", expected 4");
  if (u32le(quote, 4) != TEE_TYPE_TDX) throw new Error("Invalid TDX quote: not a TDX quote");

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

  // The compose-hash event must name this compose file.
  const composeHash = toHex(sha256(utf8(compose)));
  const log = optField(info, "event_log");
  if (log === null || log.kind != Kind.Array) throw new Error("Invalid argument `tcb_info.event_log`: expected an array");
  let found = false;
  for (let i = 0; i < log.items.length; i++) {
    const e = log.items[i];
    if (e.kind != Kind.Object) continue;
    const name = optField(e, "event");
    if (name === null || name.kind != Kind.String || name.text != "compose-hash") continue;
    const payload = optField(e, "event_payload");
    if (payload === null || payload.kind != Kind.String || payload.text.toLowerCase() != composeHash)
      throw new Error("tcb_info: the compose-hash event does not match sha256(app_compose)");
    found = true;
  }
  if (!found) throw new Error("tcb_info: no compose-hash event");

  // RTMR3 claimed by tcb_info must be the quote's (the replay itself needs sha384: not checked).
  const rtmr3 = optField(info, "rtmr3");
  if (rtmr3 !== null) {
    const quoted = toHex(quote.subarray(RTMR3_OFFSET, RTMR3_OFFSET + 48));
    if (asString(rtmr3, "tcb_info.rtmr3").toLowerCase() != quoted) throw new Error("tcb_info: rtmr3 does not match the quote");
  }

  if (countOf(compose, "image:") != 2) throw new Error("tcb_info.app_compose: expected exactly two images");
  const api = imageDigestAfter(compose, "#shade-agent-api-image");
  const app = imageDigestAfter(compose, "#shade-agent-app-image");
  return new TeeRegistration(api, app, digest);
}
