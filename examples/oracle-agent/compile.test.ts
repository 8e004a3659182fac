/**
 * The committed artefact (contract/PriceOracle.json) is what solc-js makes of contract/PriceOracle.sol with the
 * recorded settings: compiled here again, it must be identical, so the bytecode the agent deploys is provably
 * from the source beside it.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compileOracle, readArtifact, SOURCE_PATH } from './compile.js';

describe('examples/oracle-agent contract artefact', () => {
  it('is what solc-js compiles from the source, with its version and the source hash recorded', async () => {
    const committed = readArtifact();
    const compiled = await compileOracle();
    assert.deepEqual(
      compiled,
      committed,
      'recompile with: node --import tsx examples/oracle-agent/compile.ts',
    );
    assert.equal(
      committed.sourceSha256,
      createHash('sha256').update(readFileSync(SOURCE_PATH)).digest('hex'),
    );
    assert.match(committed.compiler.version, /^0\.8\.\d+\+commit\.[0-9a-f]{8}/);
    const functions = committed.abi
      .filter((e): e is { type: string; name: string } => (e as { type: string }).type === 'function')
      .map((e) => e.name)
      .sort();
    assert.deepEqual(functions, ['getPrice', 'updatePrice', 'updater']);
    assert.match(committed.bytecode, /^0x[0-9a-f]{200,}$/);
  });
});
