import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { COLLATERAL_FIELDS, dstackAttestation2, reportDataFor } from './dstack-attestation.js';
import { TeeError } from './tee-error.js';

const ACCOUNT = 'ab'.repeat(32);
const TCB = {
  mrtd: '11'.repeat(48),
  rtmr0: '22'.repeat(48),
  rtmr1: '33'.repeat(48),
  rtmr2: '44'.repeat(48),
  rtmr3: '55'.repeat(48),
  os_image_hash: '66'.repeat(32),
  compose_hash: '77'.repeat(32),
  device_id: '88'.repeat(32),
  app_compose: '{"runner":"docker-compose"}',
  event_log: [
    { imr: 3, event_type: 0x08000001, digest: '99'.repeat(48), event: 'app-id', event_payload: 'aa' },
  ],
  simulated: true,
};

describe('the 2.0 attestation from dstack answers (ShadeClient shape)', () => {
  it('report data: the implicit account bytes, zero-padded to 64; other accounts refused', () => {
    const data = reportDataFor(ACCOUNT);
    assert.equal(data.length, 64);
    assert.equal(data.subarray(0, 32).toString('hex'), ACCOUNT);
    assert.ok(data.subarray(32).equals(Buffer.alloc(32)));
    assert.throws(() => reportDataFor('agent.test.near'), TeeError);
    assert.throws(() => reportDataFor('AB'.repeat(32)), /implicit account \(64 hex digits\)/);
  });

  it('quote as bytes, collateral fields empty unless given, tcb_info fields as the contract takes them', () => {
    const a = dstackAttestation2({ quote: '0x0400ff' }, JSON.stringify(TCB));
    assert.deepEqual(a.quote, [4, 0, 255]);
    assert.deepEqual(a.collateral, Object.fromEntries(COLLATERAL_FIELDS.map((f) => [f, ''])));
    const { simulated: _, ...expected } = TCB;
    assert.deepEqual(a.tcb_info, expected);
    const given = dstackAttestation2({ quote: '04', collateral: { pck_crl: 'beef', qe_identity: 7 } }, TCB);
    assert.equal(given.collateral.pck_crl, 'beef');
    assert.equal(given.collateral.qe_identity, '');
  });

  it('no quote or no event log is a TeeError naming the guest agent', () => {
    assert.throws(() => dstackAttestation2({ quote: '' }, TCB), /GetQuote returned no quote/);
    assert.throws(() => dstackAttestation2({ quote: 'abc' }, TCB), /GetQuote returned no quote/);
    assert.throws(() => dstackAttestation2({ quote: '04' }, '{not json'), /Info returned no tcb_info/);
    assert.throws(() => dstackAttestation2({ quote: '04' }, { mrtd: '' }), /Info returned no tcb_info/);
  });
});
