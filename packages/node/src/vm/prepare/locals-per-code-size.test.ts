/**
 * `min_contract_size_per_local` (protocol 87, nearcore 2.14 87.yaml: 2): besides the absolute
 * `max_locals_per_contract`, a contract may declare at most one local per 2 bytes of its code, or preparation
 * fails with `TooManyLocals` (nearcore's `locals_limit_depends_on_contract_size`). Before 87 the parameter is
 * unset and only the absolute limit applies.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { loadRuntimeConfig } from '../../config/runtime-config.js';
import { PrepareError } from '../vm-errors.js';
import { type PrepareConfig, prepareContract } from './prepare-contract.js';
import { wat } from './test-helpers.js';

function configAt(version: number): PrepareConfig {
  const rc = loadRuntimeConfig(version);
  return {
    regularOpCost: rc.wasm.regularOpCost,
    linearOpBaseCost: rc.wasm.linearOpBaseCost,
    linearOpUnitCost: rc.wasm.linearOpUnitCost,
    limits: rc.wasm.limits,
  };
}

/** One function declaring `locals` i64 locals. */
function withLocals(locals: number): Uint8Array {
  return wat(`(module (func (export "main") ${'(local i64) '.repeat(locals)}))`);
}

/** `code` with a custom section named "p" appended whose whole encoding is `size` bytes (5 to 16_000). */
function padded(code: Uint8Array, size: number): Uint8Array {
  const lengthBytes = size - 2 < 128 ? 1 : 2;
  const content = size - 1 - lengthBytes;
  const length = lengthBytes === 1 ? [content] : [(content & 0x7f) | 0x80, content >> 7];
  const section = [0, ...length, 1, 0x70, ...new Array(content - 2).fill(0)];
  return Uint8Array.from([...code, ...section]);
}

function prepareError(code: Uint8Array, version: number): string | undefined {
  try {
    prepareContract(code, configAt(version));
    return undefined;
  } catch (e) {
    assert.ok(e instanceof PrepareError);
    return e.kind;
  }
}

describe('min_contract_size_per_local', () => {
  it('is 2 at 87 and unset at 86', () => {
    assert.equal(configAt(87).limits.minContractSizePerLocal, 2);
    assert.equal(configAt(86).limits.minContractSizePerLocal, undefined);
  });

  it('87: 100 locals need 200 bytes of code; 86 takes the compact contract', () => {
    const compact = withLocals(100);
    assert.ok(compact.length < 200, `${compact.length} bytes`);
    assert.equal(prepareError(compact, 86), undefined);
    assert.equal(prepareError(compact, 87), 'TooManyLocals');
    // Padded to exactly 200 bytes (the padding counts, as in nearcore's test): accepted.
    const enough = padded(compact, 200 - compact.length);
    assert.equal(enough.length, 200);
    assert.equal(prepareError(enough, 87), undefined);
    // One byte short: 199 / 2 = 99 locals allowed.
    assert.equal(prepareError(padded(compact, 199 - compact.length), 87), 'TooManyLocals');
  });
});
