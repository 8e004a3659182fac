// A TDX quote v4 read on chain (Intel's "Quote Format v4"): the 48-byte header, the 584-byte TD report body
// (MRTD, RTMR0-3 and report_data at their offsets), then the signature data. The PPID is read where the local
// dstack puts it (certification data type 1, "PPID in plain text", nested in the QE report certification
// data, type 6); a real quote carries it inside the PCK certificate (type 5), which no contract here parses.
// Nothing verifies the quote's signature: parsing is not verifying (docs/tee.md).

export const HEADER_LEN: i32 = 48;
export const TD_REPORT_LEN: i32 = 584;
export const MRTD_OFFSET: i32 = HEADER_LEN + 136;
export const RTMR0_OFFSET: i32 = HEADER_LEN + 328;
export const RTMR3_OFFSET: i32 = HEADER_LEN + 472;
export const REPORT_DATA_OFFSET: i32 = HEADER_LEN + 520;
const SIGNATURE_DATA_LEN_OFFSET: i32 = HEADER_LEN + TD_REPORT_LEN;
const TEE_TYPE_TDX: u32 = 0x81;
const CERT_TYPE_PPID_CLEARTEXT: u32 = 1;
const CERT_TYPE_QE_REPORT: u32 = 6;
const QE_REPORT_LEN: i32 = 384;

export function u16le(b: Uint8Array, at: i32): u32 {
  return <u32>b[at] | (<u32>b[at + 1] << 8);
}

export function u32le(b: Uint8Array, at: i32): u32 {
  return u16le(b, at) | (u16le(b, at + 2) << 16);
}

/** Panics `Invalid TDX quote: …` unless `quote` is long enough for a v4 TDX quote's header and TD report. */
export function checkTdxQuoteV4(quote: Uint8Array): void {
  if (quote.length < HEADER_LEN + TD_REPORT_LEN + 4) throw new Error("Invalid TDX quote: too short");
  if (u16le(quote, 0) != 4) throw new Error("Invalid TDX quote: version " + u16le(quote, 0).toString() + ", expected 4");
  if (u32le(quote, 4) != TEE_TYPE_TDX) throw new Error("Invalid TDX quote: not a TDX quote");
}

/** The 48-byte register at `offset` (MRTD_OFFSET, RTMR0_OFFSET + 48 * i). */
export function register48(quote: Uint8Array, offset: i32): Uint8Array {
  return quote.subarray(offset, offset + 48);
}

export function rtmr(quote: Uint8Array, i: i32): Uint8Array {
  return register48(quote, RTMR0_OFFSET + 48 * i);
}

export function reportData(quote: Uint8Array): Uint8Array {
  return quote.subarray(REPORT_DATA_OFFSET, REPORT_DATA_OFFSET + 64);
}

/** The PPID in plain text (certification data type 1 inside type 6), or null when the quote has none. */
export function plainTextPpid(quote: Uint8Array): Uint8Array | null {
  const sig = SIGNATURE_DATA_LEN_OFFSET + 4;
  const end = <i64>sig + <i64>u32le(quote, SIGNATURE_DATA_LEN_OFFSET);
  if (end > <i64>quote.length) throw new Error("Invalid TDX quote: signature data is cut short");
  // ECDSA signature (64), attestation key (64), then certification data: type (2), size (4), data.
  let at: i64 = <i64>sig + 128;
  if (at + 6 > end || u16le(quote, <i32>at) != CERT_TYPE_QE_REPORT) return null;
  at += 6 + QE_REPORT_LEN + 64;
  if (at + 2 > end) return null;
  at += 2 + <i64>u16le(quote, <i32>at); // QE authentication data
  if (at + 6 > end) return null;
  const type = u16le(quote, <i32>at);
  const size = <i64>u32le(quote, <i32>at + 2);
  at += 6;
  if (type != CERT_TYPE_PPID_CLEARTEXT || size < 36 || at + size > end) return null;
  return quote.subarray(<i32>at, <i32>at + 16);
}
