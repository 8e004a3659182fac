import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import {
  decodeTdxQuote,
  encodeTdxQuote,
  OFFSETS,
  SIMULATED_QE_VENDOR_ID,
  TdxQuoteFormatError,
} from './tdx-quote.js';

const fill = (byte: number, n = 48) => Buffer.alloc(n, byte);
const FIELDS = {
  mrtd: fill(1),
  rtmr0: fill(2),
  rtmr1: fill(3),
  rtmr2: fill(4),
  rtmr3: fill(5),
  reportData: Buffer.from('alice.near'),
  ppid: Buffer.from('00112233445566778899aabbccddeeff', 'hex'),
  cpuSvn: fill(9, 16),
  pceSvn: 13,
  pceId: 0x1234,
};

describe('simulated TDX quote v4', () => {
  const quote = encodeTdxQuote(FIELDS);

  it('has the v4 header and the TD report at their real offsets', () => {
    assert.equal(quote.readUInt16LE(0), 4);
    assert.equal(quote.readUInt16LE(2), 2); // ECDSA-256 with P-256
    assert.equal(quote.readUInt32LE(4), 0x81); // TDX
    assert.deepEqual(quote.subarray(12, 28), SIMULATED_QE_VENDOR_ID);
    assert.equal(quote.subarray(28, 48).toString('ascii'), 'SIMULATED-NOT-A-TEE\0');
    // TD report body: MRTD at 136, RTMR0-3 at 328/376/424/472, report_data at 520 (after the 48-byte header).
    assert.deepEqual(quote.subarray(48 + 136, 48 + 184), FIELDS.mrtd);
    for (const [i, at] of [328, 376, 424, 472].entries())
      assert.deepEqual(quote.subarray(48 + at, 48 + at + 48), fill(2 + i), `rtmr${i}`);
    assert.deepEqual(quote.subarray(568, 578), Buffer.from('alice.near'));
    assert.deepEqual(quote.subarray(578, 632), Buffer.alloc(54));
    assert.equal(OFFSETS.signatureDataLen, 632);
    assert.equal(quote.readUInt32LE(632), quote.length - 636);
  });

  it('has a zero signature and attestation key, and QE report certification data (type 6)', () => {
    assert.deepEqual(quote.subarray(636, 764), Buffer.alloc(128));
    assert.equal(quote.readUInt16LE(764), 6);
    assert.equal(quote.readUInt32LE(766), quote.length - 770);
    // QE report's report_data = sha256(attestation key ‖ QE auth data) ‖ 32 zero bytes, as in a real quote.
    const qeReport = quote.subarray(770, 770 + 384);
    const authLen = quote.readUInt16LE(770 + 384 + 64);
    const auth = quote.subarray(770 + 384 + 66, 770 + 384 + 66 + authLen);
    assert.match(auth.toString('ascii'), /SIMULATED/);
    const expected = createHash('sha256').update(Buffer.alloc(64)).update(auth).digest();
    assert.deepEqual(qeReport.subarray(320, 352), expected);
    assert.deepEqual(qeReport.subarray(352, 384), Buffer.alloc(32));
  });

  it('keeps the PPID in certification data type 1 (PPID, CPUSVN, PCESVN, PCEID) after the QE auth data', () => {
    const authLen = quote.readUInt16LE(770 + 384 + 64);
    const at = 770 + 384 + 66 + authLen;
    assert.equal(quote.readUInt16LE(at), 1);
    assert.equal(quote.readUInt32LE(at + 2), 36);
    assert.equal(quote.subarray(at + 6, at + 22).toString('hex'), '00112233445566778899aabbccddeeff');
    assert.equal(at + 6 + 36, quote.length);
  });

  it('decodes back to its fields', () => {
    const d = decodeTdxQuote(quote);
    assert.equal(d.simulated, true);
    assert.deepEqual(
      [d.mrtd, d.rtmr0, d.rtmr1, d.rtmr2, d.rtmr3],
      [FIELDS.mrtd, FIELDS.rtmr0, FIELDS.rtmr1, FIELDS.rtmr2, FIELDS.rtmr3],
    );
    assert.deepEqual(d.reportData, Buffer.concat([FIELDS.reportData, Buffer.alloc(54)]));
    assert.deepEqual(d.ppid, FIELDS.ppid);
    assert.deepEqual(d.cpuSvn, FIELDS.cpuSvn);
    assert.equal(d.pceSvn, 13);
    assert.equal(d.pceId, 0x1234);
  });

  it('refuses what is not a TDX quote v4, and wrong field sizes', () => {
    const v5 = Buffer.from(quote);
    v5.writeUInt16LE(5, 0);
    assert.throws(() => decodeTdxQuote(v5), new TdxQuoteFormatError('version 5, expected 4'));
    const sgx = Buffer.from(quote);
    sgx.writeUInt32LE(0, 4);
    assert.throws(() => decodeTdxQuote(sgx), /not a TDX quote/);
    assert.throws(() => decodeTdxQuote(quote.subarray(0, 600)), /too short/);
    assert.throws(() => encodeTdxQuote({ ...FIELDS, mrtd: fill(1, 47) }), /mrtd: expected 48 bytes/);
    assert.throws(() => encodeTdxQuote({ ...FIELDS, reportData: fill(1, 65) }), /at most 64 bytes/);
  });
});
