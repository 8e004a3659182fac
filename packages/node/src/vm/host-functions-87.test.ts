/**
 * The host functions nearcore 2.14 adds at protocol 87, end to end: hand-written WAT contracts, prepared,
 * linked and run as a function call is (runContract), at 86 and at 87 with each version's own parameters.
 * At 86 a contract importing `sha3_256`, `sha3_384`, `sha3_512` or `ml_dsa_verify` fails to link as with an
 * unknown name (nearcore leaves them undefined while `sha3_host_fns` / `ml_dsa_verify_host_fn` are off); at 87
 * they run, return what FIPS 202 / FIPS 204 say, and the gas profile books their costs under nearcore's
 * `ExtCosts` names: base once, per byte for each byte hashed or verified.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { KeyPair, sha256 } from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { ContractCache } from './contract-cache.js';
import { EXT_COST_INDEX, gasProfileView } from './gas-profile.js';
import { wat } from './prepare/test-helpers.js';
import { runContract } from './run-contract.js';
import { MemoryExternal, testContext } from './test-support/vm-logic-builder.js';
import { vmConfigFrom } from './vm-config.js';
import type { VMConfig } from './vm-logic.js';

const SHA3 = ['sha3_256', 'sha3_384', 'sha3_512'] as const;

/** `hash`: the method's input hashed by `fn` into register 1, returned as the call's value. */
const hashContract = (fn: string) => `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "${fn}" (func $hash (param i64 i64 i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (func (export "hash")
    (call $input (i64.const 0))
    (call $hash (i64.const -1) (i64.const 0) (i64.const 1))
    (call $value_return (i64.const -1) (i64.const 1))))`;

/** `verify`: the input is signature (3309) ‖ public key (1952) ‖ message; returns ml_dsa_verify's u64. The
 * lengths passed may be changed to drive the length errors. */
const verifyContract = (sigLen = 3309, pkLen = 1952) => `(module
  (import "env" "input" (func $input (param i64)))
  (import "env" "register_len" (func $register_len (param i64) (result i64)))
  (import "env" "read_register" (func $read_register (param i64 i64)))
  (import "env" "ml_dsa_verify" (func $ml_dsa_verify (param i64 i64 i64 i64 i64 i64) (result i64)))
  (import "env" "value_return" (func $value_return (param i64 i64)))
  (memory 1)
  (func (export "verify")
    (call $input (i64.const 0))
    (call $read_register (i64.const 0) (i64.const 0))
    (i64.store (i32.const 60000)
      (call $ml_dsa_verify
        (i64.const ${sigLen}) (i64.const 0)
        (i64.sub (call $register_len (i64.const 0)) (i64.const 5261)) (i64.const 5261)
        (i64.const ${pkLen}) (i64.const 3309)))
    (call $value_return (i64.const 8) (i64.const 60000))))`;

function run(
  version: number,
  src: string,
  method: string,
  input: Uint8Array,
  configure: (config: VMConfig) => VMConfig = (c) => c,
) {
  const rc = loadRuntimeConfig(version);
  const code = wat(src);
  return runContract({
    codeHash: sha256(code),
    code: () => code,
    method,
    context: testContext({ input, prepaidGas: 300n * 10n ** 12n }),
    config: configure(vmConfigFrom(rc)),
    ext: new MemoryExternal(),
    actionHash: new Uint8Array(32),
    cache: new ContractCache(rc),
  });
}

const pair = KeyPair.fromMlDsa65Seed(new Uint8Array(32).fill(3));
const verifyInput = (message: Uint8Array, signature = pair.sign(message).data) =>
  Uint8Array.of(...signature, ...pair.publicKey.data, ...message);

const u64le = (value: Uint8Array | undefined) =>
  value && new DataView(value.buffer, value.byteOffset).getBigUint64(0, true);
const returned = (outcome: ReturnType<typeof run>) =>
  outcome.returnData.kind === 'Value' ? outcome.returnData.value : undefined;

describe('protocol 87 host functions in a contract', () => {
  it('are not linked at 86: LinkError, as for an unknown import', () => {
    for (const fn of SHA3) {
      const outcome = run(86, hashContract(fn), 'hash', new Uint8Array());
      assert.equal(
        outcome.error?.debug(),
        `LinkError { msg: "unknown import: \`env::${fn}\` has not been defined" }`,
      );
    }
    const outcome = run(86, verifyContract(), 'verify', verifyInput(new Uint8Array(32)));
    assert.equal(
      outcome.error?.debug(),
      'LinkError { msg: "unknown import: `env::ml_dsa_verify` has not been defined" }',
    );
  });

  for (const fn of SHA3) {
    it(`${fn} is linked at 87: the FIPS 202 digest, its base once and its byte cost per input byte`, () => {
      const input = new TextEncoder().encode('The quick brown fox jumps over the lazy dog');
      const outcome = run(87, hashContract(fn), 'hash', input);
      assert.equal(outcome.error, undefined);
      assert.deepEqual(
        returned(outcome),
        new Uint8Array(createHash(fn.replace('_', '-')).update(input).digest()),
      );
      const costs = loadRuntimeConfig(87).wasm.extCosts;
      const base = `${fn}_base` as const;
      const byte = `${fn}_byte` as const;
      assert.equal(outcome.profile.ext[EXT_COST_INDEX[base]], costs[base]);
      assert.equal(outcome.profile.ext[EXT_COST_INDEX[byte]], costs[byte] * BigInt(input.length));
      const view = gasProfileView(outcome.profile);
      assert.deepEqual(
        view.filter((e) => e.cost.startsWith('SHA3_')),
        [
          { cost_category: 'WASM_HOST_COST', cost: base.toUpperCase(), gas_used: costs[base].toString() },
          {
            cost_category: 'WASM_HOST_COST',
            cost: byte.toUpperCase(),
            gas_used: (costs[byte] * BigInt(input.length)).toString(),
          },
        ],
      );
      // No `base` charge of its own: the profile's two BASE charges are input's and value_return's.
      assert.equal(outcome.profile.ext[EXT_COST_INDEX.base], costs.base * 2n);
    });
  }

  it('ml_dsa_verify is linked at 87: 1 for a good signature, 0 for a bad one, its costs booked', () => {
    const message = new TextEncoder().encode('a message of 37 bytes, signed by it.');
    const ok = run(87, verifyContract(), 'verify', verifyInput(message));
    assert.equal(ok.error, undefined);
    assert.equal(u64le(returned(ok)), 1n);
    const costs = loadRuntimeConfig(87).wasm.extCosts;
    assert.equal(ok.profile.ext[EXT_COST_INDEX.ml_dsa_verify_base], costs.ml_dsa_verify_base);
    assert.equal(
      ok.profile.ext[EXT_COST_INDEX.ml_dsa_verify_byte],
      costs.ml_dsa_verify_byte * BigInt(message.length),
    );
    assert.deepEqual(
      gasProfileView(ok.profile)
        .filter((e) => e.cost.startsWith('ML_DSA'))
        .map((e) => [e.cost, e.gas_used]),
      [
        ['ML_DSA_VERIFY_BASE', '540000000000'],
        ['ML_DSA_VERIFY_BYTE', (11_000_000 * message.length).toString()],
      ],
    );

    const tampered = message.slice();
    tampered[0] ^= 1;
    const bad = run(87, verifyContract(), 'verify', verifyInput(tampered, pair.sign(message).data));
    assert.equal(bad.error, undefined);
    assert.equal(u64le(returned(bad)), 0n);
  });

  it('ml_dsa_verify with a wrong length aborts the call with MlDsaVerifyInvalidInput', () => {
    const input = verifyInput(new Uint8Array(32));
    const shortSig = run(87, verifyContract(3308), 'verify', input);
    assert.equal(
      shortSig.error?.debug(),
      'HostError(MlDsaVerifyInvalidInput { msg: "invalid signature length" })',
    );
    assert.deepEqual(shortSig.error?.outcomeJson(), {
      ExecutionError: 'ML-DSA signature verification error: invalid signature length',
    });
    const shortKey = run(87, verifyContract(3309, 1951), 'verify', input);
    assert.equal(
      shortKey.error?.debug(),
      'HostError(MlDsaVerifyInvalidInput { msg: "invalid public key length" })',
    );
    // The key is checked after the message was read and paid for.
    assert.equal(shortKey.profile.ext[EXT_COST_INDEX.ml_dsa_verify_byte], 32n * 11_000_000n);
  });

  it('each switch gates its own functions: sha3_host_fns the three hashes, ml_dsa_verify_host_fn the verifier', () => {
    const sha3Only = (c: VMConfig): VMConfig => ({
      ...c,
      hostFunctionSwitches: { ...c.hostFunctionSwitches!, mlDsaVerifyHostFn: false },
    });
    const mlDsaOnly = (c: VMConfig): VMConfig => ({
      ...c,
      hostFunctionSwitches: { ...c.hostFunctionSwitches!, sha3HostFns: false },
    });
    const input = verifyInput(new Uint8Array(32));
    assert.equal(run(87, hashContract('sha3_384'), 'hash', input, sha3Only).error, undefined);
    assert.match(
      run(87, verifyContract(), 'verify', input, sha3Only).error?.debug() ?? '',
      /env::ml_dsa_verify/,
    );
    assert.equal(run(87, verifyContract(), 'verify', input, mlDsaOnly).error, undefined);
    assert.match(
      run(87, hashContract('sha3_512'), 'hash', input, mlDsaOnly).error?.debug() ?? '',
      /env::sha3_512/,
    );
  });
});
