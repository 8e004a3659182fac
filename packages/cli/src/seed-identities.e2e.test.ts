/**
 * `--seed` derives the MPC root keys: two `shadebox up --memory --seed S` runs give the same agent addresses,
 * another seed other ones, `--memory` without a seed the default seed's ('shadebox'), and each is what
 * RootKeys.fromSeed gives offline (the formula docs/chain-signatures.md documents). `shadebox node --memory
 * --mpc --seed S` has the same keys: `shadebox derive --rpc` against it gives up's addresses.
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { RootKeys } from '@shadebox/mpc';
import { runCliInProcess } from '../test-support/cli-in-process.js';
import { CliProcess } from '../test-support/cli-process.js';
import { agentAddresses } from './chain-signatures/agent-addresses.js';

interface Ready {
  rpcUrl: string;
  agentAddresses: ReturnType<typeof agentAddresses>;
}

/** Starts `shadebox <args> --json` on free ports, reads its ready line, stops it. */
async function readyLine(args: string[]): Promise<Ready> {
  const cli = new CliProcess([...args, '--rpc-port', '0', '--json']);
  try {
    return JSON.parse(await cli.firstLine());
  } finally {
    await cli.stop();
  }
}

const up = (seed?: string) =>
  readyLine(['up', '--memory', '--agent-port', '0', ...(seed === undefined ? [] : ['--seed', seed])]);
const offline = (seed: string) => agentAddresses(RootKeys.fromSeed(seed).publicKeys(), 'agent.test.near');

describe('--seed gives stable agent addresses', () => {
  it('two --memory runs with one seed agree; another seed differs; no seed is the default seed', async () => {
    const [first, second] = await Promise.all([up('seed one'), up('seed one')]);
    assert.deepEqual(first.agentAddresses, second.agentAddresses);
    assert.deepEqual(first.agentAddresses, offline('seed one'));
    const [other, unseeded] = await Promise.all([up('seed two'), up()]);
    assert.deepEqual(other.agentAddresses, offline('seed two'));
    for (const chain of ['evm', 'bitcoin', 'solana'] as const) {
      assert.notEqual(other.agentAddresses[chain].address, first.agentAddresses[chain].address);
    }
    assert.deepEqual(unseeded.agentAddresses, offline('shadebox'));
    // As docs/chain-signatures.md (Keys) prints them.
    assert.equal(unseeded.agentAddresses.evm.address, '0x185F19796251Fe4286ff40c20043cf6f640Bc295');
    assert.equal(unseeded.agentAddresses.bitcoin.address, 'tb1q3reg3fctm5pccvv2ev89l2m4u8cty62dvacut2');
    assert.equal(unseeded.agentAddresses.solana.address, '5GsiMAcb5hM5MVBD5kSFNoapyzfGSBD24DSt589oDa4y');
  });

  it('shadebox node --memory --mpc --seed S has the keys up --seed S has', async () => {
    const cli = new CliProcess([
      'node',
      '--memory',
      '--mpc',
      '--seed',
      'seed one',
      '--rpc-port',
      '0',
      '--json',
    ]);
    try {
      const { rpcUrl } = JSON.parse(await cli.firstLine()) as { rpcUrl: string };
      const expected = offline('seed one');
      for (const chain of ['evm', 'bitcoin', 'solana'] as const) {
        const r = await runCliInProcess([
          'derive',
          'agent.test.near',
          expected[chain].path,
          '--chain',
          chain,
          '--rpc',
          rpcUrl,
          '--json',
        ]);
        assert.equal(r.code, 0, r.stderr);
        assert.equal(JSON.parse(r.stdout).address, expected[chain].address);
      }
    } finally {
      await cli.stop();
    }
  });
});
