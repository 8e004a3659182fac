/**
 * A simulated Intel TDX quote in the real quote v4 binary layout (Intel TDX DCAP Quoting Library API,
 * "Quote Format v4"), so that parsers written for real quotes read it: the 48-byte header, the 584-byte TD
 * report body (MRTD, RTMR0-3, report_data at their real offsets), then the signature data. The signature
 * data is clearly simulated: the ECDSA signature and the attestation key are zero, the QE vendor id reads
 * `shadebox-sim-tdx`, the header's user data and the QE authentication data say SIMULATED, and the
 * certification data holds no PCK certificate chain. The PPID that a real quote carries inside the PCK
 * certificate (an SGX extension of the X.509 certificate in certification data type 5) sits here in
 * certification data type 1, Intel's "PCK identifier: PPID in plain text, CPUSVN, PCESVN" (with the PCEID),
 * nested in the QE report certification data (type 6) where the PCK chain would be. docs/tee.md draws it.
 */
import { createHash } from 'node:crypto';

export const HEADER_LEN = 48;
export const TD_REPORT_LEN = 584;
/** Offsets in the quote (header included). */
export const OFFSETS = {
  version: 0,
  attestationKeyType: 2,
  teeType: 4,
  qeVendorId: 12,
  userData: 28,
  tdReport: HEADER_LEN,
  mrtd: HEADER_LEN + 136,
  rtmr0: HEADER_LEN + 328,
  rtmr1: HEADER_LEN + 376,
  rtmr2: HEADER_LEN + 424,
  rtmr3: HEADER_LEN + 472,
  reportData: HEADER_LEN + 520,
  signatureDataLen: HEADER_LEN + TD_REPORT_LEN,
} as const;

export const TEE_TYPE_TDX = 0x81;
/** ECDSA-256 with P-256, the only attestation key type of TDX quotes. */
export const ATTESTATION_KEY_ECDSA_P256 = 2;
/** 16 bytes where Intel's quoting enclave writes its vendor id (939a7233…): never Intel's here. */
export const SIMULATED_QE_VENDOR_ID = Buffer.from('shadebox-sim-tdx', 'ascii');
export const SIMULATED_USER_DATA = Buffer.from('SIMULATED-NOT-A-TEE\0', 'ascii');
export const SIMULATED_QE_AUTH_DATA = Buffer.from(
  'SHADEBOX SIMULATED TDX QUOTE: NOT AN ATTESTATION, NO TEE SIGNED IT',
  'ascii',
);
const CERT_TYPE_PPID_CLEARTEXT = 1;
const CERT_TYPE_QE_REPORT = 6;
const QE_REPORT_LEN = 384;
const TDX_XFAM = Buffer.from('e702060000000000', 'hex');

export interface TdxQuoteFields {
  /** 48 bytes each. */
  mrtd: Buffer;
  rtmr0: Buffer;
  rtmr1: Buffer;
  rtmr2: Buffer;
  rtmr3: Buffer;
  /** Up to 64 bytes, zero-padded. */
  reportData: Buffer;
  /** The platform's PPID, 16 bytes. */
  ppid: Buffer;
  /** 16 bytes; zero by default. */
  cpuSvn?: Buffer;
  pceSvn?: number;
  pceId?: number;
}

export interface DecodedTdxQuote {
  version: number;
  attestationKeyType: number;
  teeType: number;
  qeVendorId: Buffer;
  userData: Buffer;
  mrtd: Buffer;
  rtmr0: Buffer;
  rtmr1: Buffer;
  rtmr2: Buffer;
  rtmr3: Buffer;
  reportData: Buffer;
  /** From certification data type 1; undefined when the quote has none (a real quote has a PCK chain). */
  ppid?: Buffer;
  cpuSvn?: Buffer;
  pceSvn?: number;
  pceId?: number;
  /** The QE vendor id is the simulator's. */
  simulated: boolean;
}

function fixed(name: string, value: Buffer, length: number): Buffer {
  if (value.length !== length) throw new RangeError(`${name}: expected ${length} bytes, got ${value.length}`);
  return value;
}

function u16(n: number): Buffer {
  const b = Buffer.alloc(2);
  b.writeUInt16LE(n);
  return b;
}

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32LE(n);
  return b;
}

function certificationData(type: number, data: Buffer): Buffer {
  return Buffer.concat([u16(type), u32(data.length), data]);
}

export function encodeTdxQuote(f: TdxQuoteFields): Buffer {
  if (f.reportData.length > 64) throw new RangeError('reportData: at most 64 bytes');
  const header = Buffer.alloc(HEADER_LEN);
  header.writeUInt16LE(4, OFFSETS.version);
  header.writeUInt16LE(ATTESTATION_KEY_ECDSA_P256, OFFSETS.attestationKeyType);
  header.writeUInt32LE(TEE_TYPE_TDX, OFFSETS.teeType);
  SIMULATED_QE_VENDOR_ID.copy(header, OFFSETS.qeVendorId);
  SIMULATED_USER_DATA.copy(header, OFFSETS.userData);

  // TD report body: TEE_TCB_SVN, MRSEAM, MRSIGNERSEAM, SEAMATTRIBUTES, TDATTRIBUTES (0: not a debug TD) are
  // zero; XFAM as a common TD has it; MRCONFIGID, MROWNER, MROWNERCONFIG zero.
  const report = Buffer.alloc(TD_REPORT_LEN);
  TDX_XFAM.copy(report, 128);
  const at = (o: number) => o - HEADER_LEN;
  fixed('mrtd', f.mrtd, 48).copy(report, at(OFFSETS.mrtd));
  fixed('rtmr0', f.rtmr0, 48).copy(report, at(OFFSETS.rtmr0));
  fixed('rtmr1', f.rtmr1, 48).copy(report, at(OFFSETS.rtmr1));
  fixed('rtmr2', f.rtmr2, 48).copy(report, at(OFFSETS.rtmr2));
  fixed('rtmr3', f.rtmr3, 48).copy(report, at(OFFSETS.rtmr3));
  f.reportData.copy(report, at(OFFSETS.reportData));

  // Signature data: ECDSA signature over header ‖ body and the attestation public key (zero: nothing signs),
  // then the QE report certification data. Its QE report's report_data is, as in a real quote,
  // sha256(attestation key ‖ QE auth data) ‖ 32 zero bytes.
  const signature = Buffer.alloc(64);
  const attestationKey = Buffer.alloc(64);
  const qeReport = Buffer.alloc(QE_REPORT_LEN);
  createHash('sha256').update(attestationKey).update(SIMULATED_QE_AUTH_DATA).digest().copy(qeReport, 320);
  const qeReportSignature = Buffer.alloc(64);
  const pckIdentifier = Buffer.concat([
    fixed('ppid', f.ppid, 16),
    fixed('cpuSvn', f.cpuSvn ?? Buffer.alloc(16), 16),
    u16(f.pceSvn ?? 0),
    u16(f.pceId ?? 0),
  ]);
  const qeCertification = Buffer.concat([
    qeReport,
    qeReportSignature,
    u16(SIMULATED_QE_AUTH_DATA.length),
    SIMULATED_QE_AUTH_DATA,
    certificationData(CERT_TYPE_PPID_CLEARTEXT, pckIdentifier),
  ]);
  const signatureData = Buffer.concat([
    signature,
    attestationKey,
    certificationData(CERT_TYPE_QE_REPORT, qeCertification),
  ]);
  return Buffer.concat([header, report, u32(signatureData.length), signatureData]);
}

export class TdxQuoteFormatError extends Error {
  constructor(message: string) {
    super(`Invalid TDX quote: ${message}`);
    this.name = 'TdxQuoteFormatError';
  }
}

/** Reads a quote v4 (real or simulated): the TD report's measurements and, when present, the PCK identifier. */
export function decodeTdxQuote(quote: Buffer): DecodedTdxQuote {
  if (quote.length < OFFSETS.signatureDataLen + 4) throw new TdxQuoteFormatError('too short');
  const version = quote.readUInt16LE(OFFSETS.version);
  if (version !== 4) throw new TdxQuoteFormatError(`version ${version}, expected 4`);
  const teeType = quote.readUInt32LE(OFFSETS.teeType);
  if (teeType !== TEE_TYPE_TDX) throw new TdxQuoteFormatError('not a TDX quote');
  const slice = (o: number, n: number) => Buffer.from(quote.subarray(o, o + n));
  const qeVendorId = slice(OFFSETS.qeVendorId, 16);
  const decoded: DecodedTdxQuote = {
    version,
    attestationKeyType: quote.readUInt16LE(OFFSETS.attestationKeyType),
    teeType,
    qeVendorId,
    userData: slice(OFFSETS.userData, 20),
    mrtd: slice(OFFSETS.mrtd, 48),
    rtmr0: slice(OFFSETS.rtmr0, 48),
    rtmr1: slice(OFFSETS.rtmr1, 48),
    rtmr2: slice(OFFSETS.rtmr2, 48),
    rtmr3: slice(OFFSETS.rtmr3, 48),
    reportData: slice(OFFSETS.reportData, 64),
    simulated: qeVendorId.equals(SIMULATED_QE_VENDOR_ID),
  };
  const sigLen = quote.readUInt32LE(OFFSETS.signatureDataLen);
  const sig = OFFSETS.signatureDataLen + 4;
  if (quote.length < sig + sigLen) throw new TdxQuoteFormatError('signature data is cut short');
  // ECDSA signature (64), attestation key (64), certification data type, size.
  let at = sig + 128;
  if (sigLen < 134 || quote.readUInt16LE(at) !== CERT_TYPE_QE_REPORT) return decoded;
  at += 6 + QE_REPORT_LEN + 64;
  const authLen = quote.readUInt16LE(at);
  at += 2 + authLen;
  if (at + 6 > sig + sigLen) return decoded;
  const type = quote.readUInt16LE(at);
  const size = quote.readUInt32LE(at + 2);
  at += 6;
  if (type !== CERT_TYPE_PPID_CLEARTEXT || size < 36 || at + size > sig + sigLen) return decoded;
  decoded.ppid = slice(at, 16);
  decoded.cpuSvn = slice(at + 16, 16);
  decoded.pceSvn = quote.readUInt16LE(at + 32);
  decoded.pceId = quote.readUInt16LE(at + 34);
  return decoded;
}
