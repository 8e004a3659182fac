/**
 * The FIPS 202 host functions of protocol 87 (`sha3_256`, `sha3_384`, `sha3_512`, nearcore 2.14 behind
 * `sha3_host_fns`) on a VMLogic without a node: the digest lands in the register, and the call burns exactly
 * its own base, its per-byte cost for each byte hashed, the read of the input (memory or register) and the
 * register write of the digest, as nearcore's `sha256` family charges (no `base`).
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import type { ExtCosts } from './ext-costs.js';
import { buildVMLogic, REGISTER } from './test-support/vm-logic-builder.js';
import { HostError } from './vm-errors.js';

const FUNCTIONS = [
  { name: 'sha3_256', hash: 'sha3-256', digest: 32, base: 'sha3_256_base', byte: 'sha3_256_byte' },
  { name: 'sha3_384', hash: 'sha3-384', digest: 48, base: 'sha3_384_base', byte: 'sha3_384_byte' },
  { name: 'sha3_512', hash: 'sha3-512', digest: 64, base: 'sha3_512_base', byte: 'sha3_512_byte' },
] as const satisfies readonly { base: keyof ExtCosts; byte: keyof ExtCosts }[];

const digestOf = (hash: string, data: Uint8Array) => new Uint8Array(createHash(hash).update(data).digest());

describe('sha3_256 / sha3_384 / sha3_512 host functions', () => {
  for (const f of FUNCTIONS) {
    it(`${f.name}: input from memory, digest in the register, base + bytes × byte cost`, () => {
      const logic = buildVMLogic();
      const input = logic.memWrite('tesdsst');
      const before = logic.burntGas;
      logic.call(f.name, input.len, input.ptr, 0n);
      const burnt = logic.burntGas - before;
      assert.equal(
        burnt,
        logic.extGas({
          [f.base]: 1,
          [f.byte]: input.len,
          read_memory_base: 1,
          read_memory_byte: input.len,
          write_register_base: 1,
          write_register_byte: f.digest,
        }),
      );
      assert.deepEqual(logic.readRegister(0n), digestOf(f.hash, new TextEncoder().encode('tesdsst')));
    });

    it(`${f.name}: input from a register (len u64::MAX), 1,000 bytes`, () => {
      const logic = buildVMLogic();
      const data = new Uint8Array(1000).map((_, i) => i & 0xff);
      logic.setRegister(1n, data);
      const before = logic.burntGas;
      logic.call(f.name, REGISTER, 1n, 2n);
      const burnt = logic.burntGas - before;
      assert.equal(
        burnt,
        logic.extGas({
          [f.base]: 1,
          [f.byte]: 1000,
          read_register_base: 1,
          read_register_byte: 1000,
          write_register_base: 1,
          write_register_byte: f.digest,
        }),
      );
      assert.deepEqual(logic.readRegister(2n), digestOf(f.hash, data));
    });

    it(`${f.name}: input outside memory is MemoryAccessViolation after the base is paid`, () => {
      const logic = buildVMLogic();
      const before = logic.burntGas;
      assert.throws(
        () => logic.call(f.name, 10n, 1n << 40n, 0n),
        (e: unknown) => e instanceof HostError && e.variant === 'MemoryAccessViolation',
      );
      assert.equal(
        logic.burntGas - before,
        logic.extGas({ [f.base]: 1, read_memory_base: 1, read_memory_byte: 10 }),
      );
    });
  }

  it('charge the gas of nearcore 2.14 at protocol 87 (base and per byte)', () => {
    const c = buildVMLogic().costs;
    assert.deepEqual(
      [c.sha3_256_base, c.sha3_256_byte, c.sha3_384_base, c.sha3_384_byte, c.sha3_512_base, c.sha3_512_byte],
      [5_879_491_275n, 21_471_105n, 5_811_388_236n, 36_649_701n, 5_811_388_236n, 36_649_701n],
    );
  });
});
