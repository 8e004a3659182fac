/**
 * `ml_dsa_verify` (protocol 87, nearcore 2.14 behind `ml_dsa_verify_host_fn`) on a VMLogic without a node,
 * with the cases and cost counts of nearcore's logic tests for it (runtime/near-vm-runner/src/logic/tests/
 * ml_dsa_verify.rs): 1 for a good signature, 0 for any bad one of the right sizes, `MlDsaVerifyInvalidInput`
 * for a wrong size — the signature's checked as soon as it is read, the key's only after the message has been
 * read and paid for. No `base` charge. The signatures are made with the node's own ML-DSA-65 signer.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPair } from '@shadebox/primitives';
import type { ExtCosts } from './ext-costs.js';
import { buildVMLogic, REGISTER, type TestVMLogic } from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const pair = KeyPair.fromMlDsa65Seed(new Uint8Array(32).map((_, i) => i * 7));
const MESSAGE = new Uint8Array(32).fill(7);
const SIGNATURE = pair.sign(MESSAGE).data;
const PUBLIC_KEY = pair.publicKey.data;

type Input = { bytes: Uint8Array; len?: bigint };
interface Case {
  signature: Input;
  message: Input;
  publicKey: Input;
}

/** Lays the inputs out (memory, or a register when `len` is u64::MAX) and calls the host function. */
function verify(logic: TestVMLogic, c: Case): { result?: bigint; error?: HostError; gas: bigint } {
  const place = (input: Input, register: bigint): [bigint, bigint] => {
    if (input.len === REGISTER) {
      logic.setRegister(register, input.bytes);
      return [REGISTER, register];
    }
    const slice = logic.memWrite(input.bytes);
    return [input.len ?? slice.len, slice.ptr];
  };
  const [sigLen, sigPtr] = place(c.signature, 1n);
  const [msgLen, msgPtr] = place(c.message, 2n);
  const [pkLen, pkPtr] = place(c.publicKey, 3n);
  const before = logic.burntGas;
  try {
    const result = logic.u64('ml_dsa_verify', sigLen, sigPtr, msgLen, msgPtr, pkLen, pkPtr);
    return { result, gas: logic.burntGas - before };
  } catch (e) {
    assert.ok(e instanceof HostError, String(e));
    return { error: e, gas: logic.burntGas - before };
  }
}

const good = (): Case => ({
  signature: { bytes: SIGNATURE },
  message: { bytes: MESSAGE },
  publicKey: { bytes: PUBLIC_KEY },
});

/** The counts of a call that read all three inputs from memory. */
function fullRead(sig: number, msg: number, pk: number): Partial<Record<keyof ExtCosts, number>> {
  return {
    read_memory_base: 3,
    read_memory_byte: sig + msg + pk,
    ml_dsa_verify_base: 1,
    ml_dsa_verify_byte: msg,
  };
}

describe('ml_dsa_verify host function (nearcore ml_dsa_verify.rs)', () => {
  it('a valid signature: 1, with base + message bytes × byte cost + the three reads', () => {
    const logic = buildVMLogic();
    const { result, gas } = verify(logic, good());
    assert.equal(result, 1n);
    assert.equal(gas, logic.extGas(fullRead(3309, 32, 1952)));
  });

  it('a changed message, a changed signature, another key, an all-zero key: 0, same costs', () => {
    const message = MESSAGE.slice();
    message[0] ^= 1;
    const signature = SIGNATURE.slice();
    signature[100] ^= 0xff;
    const otherKey = PUBLIC_KEY.slice();
    otherKey[0] ^= 1;
    for (const c of [
      { ...good(), message: { bytes: message } },
      { ...good(), signature: { bytes: signature } },
      { ...good(), publicKey: { bytes: otherKey } },
      { ...good(), publicKey: { bytes: new Uint8Array(1952) } },
    ]) {
      const logic = buildVMLogic();
      const { result, gas } = verify(logic, c);
      assert.equal(result, 0n);
      assert.equal(gas, logic.extGas(fullRead(3309, 32, 1952)));
    }
  });

  it('a longer message: the byte cost scales with it', () => {
    const logic = buildVMLogic();
    const message = new Uint8Array(1000).map((_, i) => i & 0xff);
    const { result, gas } = verify(logic, {
      ...good(),
      message: { bytes: message },
      signature: { bytes: pair.sign(message).data },
    });
    assert.equal(result, 1n);
    assert.equal(gas, logic.extGas(fullRead(3309, 1000, 1952)));
  });

  it('a signature one byte short: MlDsaVerifyInvalidInput right after it is read', () => {
    const logic = buildVMLogic();
    const { error, gas } = verify(logic, { ...good(), signature: { bytes: SIGNATURE, len: 3308n } });
    assert.equal(error?.variant, 'MlDsaVerifyInvalidInput');
    assert.equal(error?.fields?.msg, 'invalid signature length');
    assert.equal(error?.display, 'ML-DSA signature verification error: invalid signature length');
    assert.equal(gas, logic.extGas({ read_memory_base: 1, read_memory_byte: 3308, ml_dsa_verify_base: 1 }));
  });

  it('an empty signature: the same error, only the base and one empty read', () => {
    const logic = buildVMLogic();
    const { error, gas } = verify(logic, { ...good(), signature: { bytes: new Uint8Array() } });
    assert.equal(error?.fields?.msg, 'invalid signature length');
    assert.equal(gas, logic.extGas({ read_memory_base: 1, ml_dsa_verify_base: 1 }));
  });

  it('a key one byte short: MlDsaVerifyInvalidInput after the message was read and paid for', () => {
    const logic = buildVMLogic();
    const { error, gas } = verify(logic, { ...good(), publicKey: { bytes: PUBLIC_KEY, len: 1951n } });
    assert.equal(error?.variant, 'MlDsaVerifyInvalidInput');
    assert.equal(error?.fields?.msg, 'invalid public key length');
    assert.equal(gas, logic.extGas(fullRead(3309, 32, 1951)));
  });

  it('all three inputs from registers: register reads instead of memory reads', () => {
    const logic = buildVMLogic();
    const { result, gas } = verify(logic, {
      signature: { bytes: SIGNATURE, len: REGISTER },
      message: { bytes: MESSAGE, len: REGISTER },
      publicKey: { bytes: PUBLIC_KEY, len: REGISTER },
    });
    assert.equal(result, 1n);
    assert.equal(
      gas,
      logic.extGas({
        read_register_base: 3,
        read_register_byte: 3309 + 32 + 1952,
        ml_dsa_verify_base: 1,
        ml_dsa_verify_byte: 32,
      }),
    );
  });

  it('charges nearcore 2.14’s ml_dsa_verify costs', () => {
    const c = buildVMLogic().costs;
    assert.equal(c.ml_dsa_verify_base, 540_000_000_000n);
    assert.equal(c.ml_dsa_verify_byte, 11_000_000n);
  });
});
