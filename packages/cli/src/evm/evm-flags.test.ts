/** Unit tests of `shadebox up`'s EVM flags: the plan they give, their defaults and their errors. */
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseFlags } from '../args.js';
import { UsageError } from '../usage-error.js';
import { EVM_OPTIONS, type EvmPlan, EvmUnavailableError, evmPlanFromFlags } from './evm-flags.js';

const dir = mkdtempSync(join(tmpdir(), 'shadebox-evm-flags-'));
after(() => rmSync(dir, { recursive: true, force: true }));
/** A file that passes for anvil (the plan only checks that it is an executable file). */
const fakeAnvil = join(dir, 'anvil');
writeFileSync(fakeAnvil, '#!/bin/sh\n');
chmodSync(fakeAnvil, 0o755);

function plan(
  args: string[],
  rpcPort = 3030,
  env: Record<string, string> = { ANVIL_BIN: fakeAnvil },
): EvmPlan {
  return evmPlanFromFlags('shadebox up', parseFlags('shadebox up', args, EVM_OPTIONS), { rpcPort, env });
}

function usageError(fn: () => unknown): UsageError {
  try {
    fn();
  } catch (error) {
    assert.ok(error instanceof UsageError, String(error));
    return error;
  }
  assert.fail('expected a UsageError');
}

describe('evmPlanFromFlags', () => {
  it('by default runs anvil on 8545 with chain id 31337, funding ethereum-1', () => {
    assert.deepEqual(plan([]), {
      start: true,
      anvilPath: fakeAnvil,
      port: 8545,
      chainId: 31337,
      fundPaths: ['ethereum-1'],
    });
  });

  it('picks a free port when the node RPC port is 0, unless --evm-port says otherwise', () => {
    assert.equal((plan([], 0) as { port: number }).port, 0);
    assert.equal((plan(['--evm-port', '9545'], 0) as { port: number }).port, 9545);
    assert.equal((plan(['--evm-port', '0']) as { port: number }).port, 0);
  });

  it('--evm-chain-id and repeated --evm-fund-path (ethereum-1 first, no repeats)', () => {
    const p = plan([
      '--evm',
      '--evm-chain-id',
      '1337',
      '--evm-fund-path',
      'oracle-1',
      '--evm-fund-path',
      'ethereum-1',
      '--evm-fund-path=oracle-1',
      '--evm-fund-path',
      'treasury',
    ]);
    assert.deepEqual(p, {
      start: true,
      anvilPath: fakeAnvil,
      port: 8545,
      chainId: 1337,
      fundPaths: ['ethereum-1', 'oracle-1', 'treasury'],
    });
  });

  it('--no-evm: not started, and no reason to print', () => {
    assert.deepEqual(plan(['--no-evm']), { start: false });
  });

  it('refuses bad values and conflicting flags, naming the flag', () => {
    for (const bad of ['0', '-1', 'x', '1.5', '9007199254740992']) {
      assert.equal(usageError(() => plan(['--evm-chain-id', bad])).flag, '--evm-chain-id', bad);
    }
    assert.equal(usageError(() => plan(['--evm-port', '70000'])).flag, '--evm-port');
    assert.equal(usageError(() => plan(['--evm-fund-path', ''])).flag, '--evm-fund-path');
    assert.match(
      usageError(() => plan(['--evm', '--no-evm'])).message,
      /--evm and --no-evm cannot be used together/,
    );
    for (const flag of ['--evm-port', '--evm-chain-id', '--evm-fund-path']) {
      const e = usageError(() => plan(['--no-evm', flag, '1']));
      assert.equal(e.message, `--no-evm and ${flag} cannot be used together`);
    }
    assert.equal(usageError(() => plan(['--evm=yes'])).message, '--evm does not take a value');
  });

  it('without anvil: not started with the reason, or with --evm an error saying what to do', () => {
    const env = { ANVIL_BIN: join(dir, 'missing', 'anvil') };
    const quiet = plan([], 3030, env);
    assert.equal(quiet.start, false);
    assert.match(
      (quiet as { reason: string }).reason,
      /^ANVIL_BIN is .*missing\/anvil, which is not an executable file; point ANVIL_BIN at an anvil binary/,
    );
    assert.throws(
      () => plan(['--evm'], 3030, env),
      (error: Error) =>
        error instanceof EvmUnavailableError &&
        /^--evm: ANVIL_BIN is .*missing\/anvil, which is not an executable file; point ANVIL_BIN at/.test(
          error.message,
        ) &&
        !error.message.includes('\n'),
    );
  });
});
