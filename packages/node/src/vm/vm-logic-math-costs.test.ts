/**
 * The math host functions charge their own costs and not the generic `base` (nearcore logic.rs: `sha256`,
 * `keccak*`, `ripemd160`, `ecrecover`, `ed25519_verify`, `p256_verify`, alt_bn128, BLS12-381 start with their
 * own `*_base`; the cost counts of its logic tests, e.g. miscs.rs `test_sha256` and p256_verify.rs, have no
 * `base` for them).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { buildVMLogic, REGISTER } from './test-support/vm-logic-builder.js';

describe('math host functions: no `base` charge', () => {
  it('sha256 from a register, then read back: only read_register pays `base` (nearcore test_sha256)', () => {
    const logic = buildVMLogic();
    const data = new TextEncoder().encode('tesdsst');
    logic.setRegister(1n, data);
    const before = logic.burntGas;
    logic.call('sha256', REGISTER, 1n, 0n);
    const digest = logic.readRegister(0n);
    assert.deepEqual(
      Buffer.from(digest).toString('hex'),
      '12b0739c2d64f184b4864d2a696fc77f76705cff582b53937a371a242a9ca09e',
    );
    assert.equal(
      logic.burntGas - before,
      logic.extGas({
        base: 1,
        write_memory_base: 1,
        write_memory_byte: 32,
        read_register_base: 2,
        read_register_byte: 32 + data.length,
        write_register_base: 1,
        write_register_byte: 32,
        sha256_base: 1,
        sha256_byte: data.length,
      }),
    );
  });

  for (const [name, base, byte, digest] of [
    ['keccak256', 'keccak256_base', 'keccak256_byte', 32],
    ['keccak512', 'keccak512_base', 'keccak512_byte', 64],
  ] as const) {
    it(`${name}: its base, its bytes, the read and the register write`, () => {
      const logic = buildVMLogic();
      const input = logic.memWrite('abc');
      const before = logic.burntGas;
      logic.call(name, input.len, input.ptr, 0n);
      assert.equal(
        logic.burntGas - before,
        logic.extGas({
          [base]: 1,
          [byte]: 3,
          read_memory_base: 1,
          read_memory_byte: 3,
          write_register_base: 1,
          write_register_byte: digest,
        }),
      );
    });
  }

  it('ed25519_verify of a well-formed but wrong signature: its base, message bytes and three reads', () => {
    const logic = buildVMLogic();
    const sig = logic.memWrite(new Uint8Array(64));
    const msg = logic.memWrite('hello');
    const pk = logic.memWrite(new Uint8Array(32).fill(1));
    const before = logic.burntGas;
    assert.equal(logic.u64('ed25519_verify', sig.len, sig.ptr, msg.len, msg.ptr, pk.len, pk.ptr), 0n);
    assert.equal(
      logic.burntGas - before,
      logic.extGas({
        ed25519_verify_base: 1,
        ed25519_verify_byte: 5,
        read_memory_base: 3,
        read_memory_byte: 64 + 5 + 32,
      }),
    );
  });
});
