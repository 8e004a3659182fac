import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contractRequest } from './contract-request.js';
import { HttpError } from './http-error.js';
import { checkRequestSignatureArgs } from './request-signature-args.js';

const AGENT = 'agent.test.near';
const call = (body: unknown) => contractRequest(body, true, AGENT, new Set([AGENT, 'other.test.near']));
const sign = (args: unknown, extra: Record<string, unknown> = {}) =>
  call({ methodName: 'request_signature', args, ...extra });
const hex = (bytes: number, fill = 'ab') => fill.repeat(bytes);

/** Asserts a 400 invalid_field naming `field`, and returns its message. */
function refused(run: () => unknown, field: string): string {
  try {
    run();
  } catch (e) {
    assert.ok(e instanceof HttpError, String(e));
    assert.equal(e.status, 400);
    assert.equal(e.code, 'invalid_field');
    assert.equal(e.field, field, e.message);
    assert.ok(!e.message.includes('payload_v2'), e.message);
    return e.message;
  }
  assert.fail(`expected a 400 naming ${field}`);
}

describe('request_signature arguments', () => {
  it("accepts the original client's arguments for both key types", () => {
    assert.deepEqual(checkRequestSignatureArgs({ path: 'ethereum-1', payload: hex(32), key_type: 'Ecdsa' }), {
      path: 'ethereum-1',
      payload: hex(32),
      keyType: 'Ecdsa',
    });
    assert.equal(checkRequestSignatureArgs({ path: '', payload: 'AB'.repeat(32) }).keyType, 'Ecdsa');
    for (const bytes of [32, 100, 1232]) {
      assert.equal(
        checkRequestSignatureArgs({ path: 'p', payload: hex(bytes), key_type: 'Eddsa' }).keyType,
        'Eddsa',
      );
    }
    const req = sign({ path: 'ethereum-1', payload: hex(32), key_type: 'Ecdsa' });
    assert.equal(req.methodName, 'request_signature');
  });

  it("refuses the README's placeholder payload before any transaction, naming args.payload", () => {
    const message = refused(
      () => sign({ path: 'ethereum-1', payload: '<32-byte hex>', key_type: 'Ecdsa' }),
      'args.payload',
    );
    assert.match(message, /not hex/);
    assert.match(message, /32 bytes/);
  });

  it('checks the payload length per key type, hex, 0x and the secp256k1 order', () => {
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(31) }), 'args.payload'),
      /got 31 bytes/,
    );
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(33) }), 'args.payload'),
      /got 33 bytes/,
    );
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(31), key_type: 'Eddsa' }), 'args.payload'),
      /32 to 1232 bytes.*got 31/,
    );
    refused(() => sign({ path: 'p', payload: hex(1233), key_type: 'Eddsa' }), 'args.payload');
    assert.match(
      refused(() => sign({ path: 'p', payload: `0x${hex(32)}` }), 'args.payload'),
      /drop the 0x/,
    );
    refused(() => sign({ path: 'p', payload: `${hex(31)}a` }), 'args.payload');
    refused(() => sign({ path: 'p', payload: `${hex(31)}zz` }), 'args.payload');
    refused(() => sign({ path: 'p', payload: Array(32).fill(1) }), 'args.payload');
    refused(() => sign({ path: 'p' }), 'args.payload');
    // n itself and above cannot be an Ecdsa scalar; n − 1 can.
    const n = 'fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141';
    assert.match(
      refused(() => sign({ path: 'p', payload: n }), 'args.payload'),
      /group order/,
    );
    refused(() => sign({ path: 'p', payload: 'ff'.repeat(32) }), 'args.payload');
    sign({ path: 'p', payload: `${n.slice(0, -1)}0` });
    // The same bytes are a valid Eddsa payload.
    sign({ path: 'p', payload: 'ff'.repeat(32), key_type: 'Eddsa' });
  });

  it('checks path and key_type', () => {
    refused(() => sign({ payload: hex(32) }), 'args.path');
    refused(() => sign({ path: 7, payload: hex(32) }), 'args.path');
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(32), key_type: 'eddsa' }), 'args.key_type'),
      /Eddsa/,
    );
    refused(() => sign({ path: 'p', payload: hex(32), key_type: 'Secp256k1' }), 'args.key_type');
    refused(() => sign({ path: 'p', payload: hex(32), key_type: null }), 'args.key_type');
  });

  it('needs the gas the contract forwards to the signer', () => {
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(32) }, { gas: '10000000000000' }), 'gas'),
      /at least 25 Tgas/,
    );
    assert.equal(sign({ path: 'p', payload: hex(32) }, { gas: '25000000000000' }).gas, 25_000_000_000_000n);
  });

  it('leaves request_signature of another allowed contract, and views, to that contract', () => {
    const req = call({ methodName: 'request_signature', contractId: 'other.test.near', args: { x: 1 } });
    assert.equal(req.contractId, 'other.test.near');
    contractRequest({ methodName: 'request_signature', args: {} }, false, AGENT, new Set([AGENT]));
  });
});

describe('/call and /view fields', () => {
  it('names a field the route does not take', () => {
    assert.match(
      refused(() => call({ method: 'get_agent' }), 'method'),
      /unknown field "method".*methodName/,
    );
    refused(() => call({ methodName: 'x', argss: {} }), 'argss');
    refused(
      () => contractRequest({ methodName: 'x', deposit: '1' }, false, AGENT, new Set([AGENT])),
      'deposit',
    );
    refused(() => contractRequest({ methodName: 'x', gas: '1' }, false, AGENT, new Set([AGENT])), 'gas');
    refused(() => call({ methodName: 'x', deposit: '1' }), 'deposit');
  });

  it('a contract not allowed says where to allow it', () => {
    assert.throws(
      () => call({ methodName: 'x', contractId: 'v1.signer' }),
      (e) => e instanceof HttpError && e.status === 403 && /AGENT_API_ALLOW_CONTRACTS/.test(e.message),
    );
  });
});
