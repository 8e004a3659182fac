/**
 * `shadebox up`'s summary as a person gets it: one clean text on stdout (no log lines in it), whose curl line
 * and near-api-js snippet work as printed against the running stack, whose dev accounts exist with the
 * printed keys; the dev accounts' keys follow from --seed; --manual makes blocks only on request once set up.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { KeyPool, RpcClient } from '@shadebox/near-client';
import { KeyPair, ONE_NEAR, publicKeyToString } from '@shadebox/primitives';
import { CliProcess, REPO_ROOT, rpc, tempDir } from '../test-support/cli-process.js';
import type { ReadyEvent } from './print-ready.js';

const run = promisify(execFile);

/** The indented snippet after the near-api-js line, without its indentation. */
function snippetOf(stdout: string): string {
  const lines = stdout.split('\n');
  const start = lines.findIndex((line) => line.includes('near-api-js (npm install near-api-js)'));
  assert.ok(start >= 0, stdout);
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    if (line !== '' && !line.startsWith('    ')) break;
    body.push(line.slice(4));
  }
  return `${body.join('\n').trim()}\n`;
}

describe('shadebox up: the summary', () => {
  it('one clean summary; its curl line and near-api-js snippet work as printed; dev accounts with their keys', async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0'], {
      env: { NO_COLOR: '1' },
    });
    await cli.stdoutIncludes('registered in agent.test.near');
    const stdout = cli.stdout;
    assert.match(stdout, /^Shadebox stack ready\n/);
    assert.ok(
      stdout.split('\n').every((line) => !line.startsWith('{')),
      'no JSON log line on stdout',
    );
    const rpcUrl = /RPC\s+(http:\/\/\S+)/.exec(stdout)![1];
    assert.match(stdout, new RegExp(`Explorer\\s+${rpcUrl}/explorer\\n`));
    assert.match(stdout, /Agent API\s+http:\/\/127\.0\.0\.1:\d+\/api\/agent/);

    // The dev accounts, each with its key, and the key is on the account.
    const devAccounts = [...stdout.matchAll(/^ {2}(dev-\d+\.test\.near)\s+(ed25519:\w+)$/gm)];
    assert.deepEqual(
      devAccounts.map((m) => m[1]),
      Array.from({ length: 10 }, (_, i) => `dev-${i}.test.near`),
    );
    for (const [, accountId, secret] of devAccounts.slice(0, 3)) {
      const key = await rpc<{ permission: string }>(rpcUrl, 'query', {
        request_type: 'view_access_key',
        finality: 'final',
        account_id: accountId,
        public_key: publicKeyToString(KeyPair.fromString(secret!).publicKey),
      });
      assert.equal(key.permission, 'FullAccess');
    }

    // The curl line, run by a shell as printed.
    const curl = /^ {2}(curl .*)$/m.exec(stdout)![1];
    const viewed = JSON.parse((await run('sh', ['-c', curl])).stdout);
    assert.equal(viewed.result.amount, (10_000n * ONE_NEAR).toString());

    // The snippet, saved as try.mjs beside a node_modules with near-api-js, run with node.
    const dir = await tempDir('shadebox-try-');
    await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    await writeFile(join(dir, 'try.mjs'), snippetOf(stdout));
    const ran = await run(process.execPath, ['try.mjs'], { cwd: dir, timeout: 120_000 });
    const hash = ran.stdout.trim();
    assert.match(hash, /^[1-9A-HJ-NP-Za-km-z]{43,44}$/);
    // The transfer it sent is in the live transaction log.
    await cli.stderrIncludes(`tx ${hash}  dev-0.test.near → dev-1.test.near`);
    const dev1 = await rpc<{ amount: string }>(rpcUrl, 'query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: 'dev-1.test.near',
    });
    assert.equal(dev1.amount, (10_001n * ONE_NEAR).toString());

    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });

  it('--seed: the same seed gives the same dev accounts, derived as documented; another seed others', async () => {
    const start = async (seed: string) => {
      const cli = new CliProcess([
        'node',
        '--memory',
        '--rpc-port',
        '0',
        '--accounts',
        '3',
        '--seed',
        seed,
        '--json',
      ]);
      const ready = JSON.parse(await cli.firstLine()) as ReadyEvent;
      assert.equal((await cli.stop('SIGTERM')).code, 0);
      return ready.devAccounts;
    };
    const first = await start('my seed');
    assert.deepEqual(await start('my seed'), first);
    const expected = [0, 1, 2].map((i) => {
      const key = KeyPair.fromSecretBytes(
        0,
        new Uint8Array(createHash('sha256').update(`shadebox dev account:my seed:${i}`).digest()),
      );
      return {
        accountId: `dev-${i}.test.near`,
        publicKey: publicKeyToString(key.publicKey),
        secretKey: key.toString(),
      };
    });
    assert.deepEqual(first, expected);
    const other = await start('another');
    assert.notEqual(other[0]!.secretKey, first[0]!.secretKey);
  });

  it('--manual: the stack sets up (agent registered), then makes blocks only on request', async () => {
    const cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--manual'], {
      env: { NO_COLOR: '1' },
    });
    await cli.stdoutIncludes('registered in agent.test.near');
    assert.match(cli.stdout, /Blocks\s+manual \(only when asked\)\n/);
    const rpcUrl = /RPC\s+(http:\/\/\S+)/.exec(cli.stdout)![1]!;
    const secret = /^ {2}dev-0\.test\.near\s+(ed25519:\w+)$/m.exec(cli.stdout)![1]!;
    const pool = new KeyPool(new RpcClient([rpcUrl], 30_000), 'dev-0.test.near', [
      KeyPair.fromString(secret),
    ]);
    const signed = await pool.sign('dev-1.test.near', [{ type: 'Transfer', deposit: 1n }]);
    await rpc(rpcUrl, 'broadcast_tx_async', [signed.base64]);
    // Nothing includes it but the block asked for.
    const produced = await rpc<{ block_hash: string }>(rpcUrl, 'sandbox_produce_blocks', { count: 1 });
    const block = await rpc<{ chunks: Array<{ chunk_hash: string }> }>(rpcUrl, 'block', {
      block_id: produced.block_hash,
    });
    const chunk = await rpc<{ transactions: Array<{ hash: string }> }>(rpcUrl, 'chunk', {
      chunk_id: block.chunks[0]!.chunk_hash,
    });
    assert.deepEqual(
      chunk.transactions.map((t) => t.hash),
      [signed.hash],
    );
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });
});
