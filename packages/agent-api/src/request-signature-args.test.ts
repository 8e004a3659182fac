import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { contractRequest } from './contract-request.js';
import { HttpError } from './http-error.js';
import { builtInRequestSignature, checkRequestSignatureArgs } from './request-signature-args.js';

const AGENT = 'agent.test.near';
const call = (body: unknown) => contractRequest(body, true, AGENT, new Set([AGENT, 'other.test.near']));
/** A `/call` of request_signature to a built-in agent contract, as routes.ts checks it. */
const sign = (args: unknown, extra: Record<string, unknown> = {}) =>
  builtInRequestSignature(call({ methodName: 'request_signature', args, ...extra }));
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
      refused(() => sign({ path: 'p', payload: '0x' }), 'args.payload'),
      /got 0 bytes/,
    );
    assert.match(
      refused(() => sign({ path: 'p', payload: `0x${hex(31)}` }), 'args.payload'),
      /got 31/,
    );
    refused(() => sign({ path: 'p', payload: `0x0x${hex(31)}` }), 'args.payload');
    refused(() => sign({ path: 'p', payload: ` ${hex(32)}` }), 'args.payload');
    assert.match(
      refused(() => sign({ path: 'p', payload: `${hex(31)}a` }), 'args.payload'),
      /not hex/,
    );
    assert.match(
      refused(() => sign({ path: 'p', payload: `${hex(31)}zz` }), 'args.payload'),
      /not hex/,
    );
    assert.match(
      refused(() => sign({ path: 'p', payload: `0x${hex(31)}g0` }), 'args.payload'),
      /0x allowed/,
    );
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

  it("takes viem's 0x…, either case, and gives the contract lowercase hex without 0x", () => {
    const digest = `${'AbCdEf01'.repeat(8)}`;
    for (const payload of [`0x${digest}`, `0X${digest}`, digest, digest.toLowerCase()]) {
      assert.deepEqual(sign({ path: 'ethereum-1', payload, key_type: 'Ecdsa' }).args, {
        path: 'ethereum-1',
        payload: digest.toLowerCase(),
        key_type: 'Ecdsa',
      });
    }
    // key_type always reaches the contract, Ecdsa when it was not sent: the 2.0 contract requires it (as the
    // template does) and the v1 contract's default is Ecdsa.
    assert.deepEqual(sign({ path: 'p', payload: `0x${hex(32)}` }).args, {
      path: 'p',
      payload: hex(32),
      key_type: 'Ecdsa',
    });
    const eddsa = sign({ path: 'solana-1', payload: `0x${'CD'.repeat(40)}`, key_type: 'Eddsa' });
    assert.equal((eddsa.args as { payload: string }).payload, 'cd'.repeat(40));
  });

  it('refuses an argument the contract does not take, naming it, before anything is sent', () => {
    assert.match(
      refused(() => sign({ path: 'p', payload: hex(32), memo: 'x'.repeat(100_000) }), 'args.memo'),
      /not an argument of request_signature.*path, payload and key_type.*leave "memo" out/,
    );
    refused(() => sign({ path: 'p', payload: hex(32), keyType: 'Eddsa' }), 'args.keyType');
    refused(() => sign({ path: 'p', payload: hex(32), key_version: 0 }), 'args.key_version');
    const long = 'k'.repeat(500);
    const message = refused(() => sign({ path: 'p', payload: hex(32), [long]: 1 }), `args.${'k'.repeat(64)}`);
    assert.ok(message.length < 400, message);
  });

  it('contractRequest alone leaves request_signature arguments to the contract', () => {
    // Whether the contract is a built-in one is known only from the chain (routes.ts asks before checking).
    const args = { x: 1, payload: '0xAB', path: 7 };
    const req = call({ methodName: 'request_signature', contractId: 'other.test.near', args });
    assert.equal(req.contractId, 'other.test.near');
    assert.deepEqual(req.args, args);
    assert.deepEqual(call({ methodName: 'request_signature', args }).args, args);
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
