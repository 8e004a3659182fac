/**
 * The live transaction log through a real `shadebox node --mpc` process in text mode: the entries of a
 * transfer, a function call with logs, a panic with its message, and a chain-signature request with its
 * answer, read from stderr; `--quiet` and `--json` write none.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { KeyPool, RpcClient } from '@shadebox/near-client';
import { KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { CliProcess, REPO_ROOT } from '../test-support/cli-process.js';

const HELLO = readFileSync(join(REPO_ROOT, 'node_modules/near-hello/dist/main.wasm'));
const json = (value: unknown) => new TextEncoder().encode(JSON.stringify(value));

/** The summary's RPC URL and a dev account's key. */
function fromSummary(stdout: string): { rpcUrl: string; key: (account: string) => string } {
  const rpcUrl = /RPC\s+(http:\/\/\S+)/.exec(stdout)![1];
  return {
    rpcUrl,
    key: (account) => new RegExp(`${account.replace(/\./g, '\\.')}\\s+(ed25519:\\S+)`).exec(stdout)![1],
  };
}

/** The entry (heading and indented lines) that starts with `heading`, from the log text. */
function entry(log: string, pattern: RegExp): string {
  const lines = log.split('\n');
  const start = lines.findIndex((line) => pattern.test(line));
  assert.ok(start >= 0, `no entry ${pattern} in:\n${log}`);
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((line) => !line.startsWith('    '));
  return [lines[start], ...rest.slice(0, end === -1 ? rest.length : end)].join('\n');
}

describe('the live transaction log (shadebox node --mpc, text mode)', () => {
  let cli: CliProcess;
  let rpc: RpcClient;
  let key: (account: string) => string;

  before(async () => {
    cli = new CliProcess(['node', '--memory', '--rpc-port', '0', '--mpc'], { env: { NO_COLOR: '1' } });
    await cli.stdoutIncludes('Press Ctrl+C to stop.');
    const summary = fromSummary(cli.stdout);
    rpc = new RpcClient([summary.rpcUrl], 30_000);
    key = summary.key;
  });
  after(async () => {
    const exit = await cli.stop('SIGTERM');
    assert.equal(exit.code, 0, exit.stderr);
  });

  const pool = (account: string) => new KeyPool(rpc, account, [KeyPair.fromString(key(account))]);

  it('a transfer: the transaction with its action, then its receipt, with gas and tokens burnt', async () => {
    const outcome = (await pool('dev-0.test.near').send('dev-1.test.near', [
      { type: 'Transfer', deposit: 2n * ONE_NEAR + ONE_NEAR / 2n },
    ])) as { transaction: { hash: string } };
    const hash = outcome.transaction.hash;
    await cli.stderrIncludes(`of tx ${hash.slice(0, 8)}…`);
    const tx = entry(cli.stderr, new RegExp(`^#\\d+ tx ${hash}  dev-0\\.test\\.near → dev-1\\.test\\.near$`));
    assert.match(tx, /\n {4}Transfer 2\.5 NEAR\n/);
    assert.match(tx, /\n {4}ok → receipt \w{8}… {2}gas 0\.\d\d Tgas, burnt 0\.0000\d+ NEAR$/);
    const receipt = entry(cli.stderr, new RegExp(`receipt \\w{8}… of tx ${hash.slice(0, 8)}…`));
    assert.match(
      receipt,
      /dev-0\.test\.near → dev-1\.test\.near\n {4}ok {2}gas \d+\.\d\d Tgas, burnt [\d.]+ NEAR$/,
    );
  });

  it('a function call with logs and its return value; a panic with its message', async () => {
    const dev2 = pool('dev-2.test.near');
    await dev2.send('dev-2.test.near', [{ type: 'DeployContract', code: HELLO }]);
    await cli.stderrIncludes(`DeployContract ${HELLO.length.toLocaleString('en-US')} bytes`);

    const hi = (await dev2.send('dev-2.test.near', [
      { type: 'FunctionCall', methodName: 'returnHiWithLogs', args: json({}), gas: 30n * TGAS, deposit: 0n },
    ])) as { transaction: { hash: string } };
    const hash = hi.transaction.hash;
    await cli.stderrIncludes(`of tx ${hash.slice(0, 8)}…`);
    const call = entry(
      cli.stderr,
      new RegExp(`^#\\d+ tx ${hash}  dev-2\\.test\\.near → dev-2\\.test\\.near$`),
    );
    assert.match(call, /\n {4}call returnHiWithLogs\(\{\}\) 30\.00 Tgas\n/);
    const executed = entry(cli.stderr, new RegExp(`receipt \\w{8}… of tx ${hash.slice(0, 8)}…`));
    assert.match(executed, /\n {4}log: loooog1\n {4}log: loooog2\n {4}ok, returned "Hi" {2}gas /);

    await dev2
      .send('dev-2.test.near', [
        { type: 'FunctionCall', methodName: 'triggerAssert', args: json({}), gas: 30n * TGAS, deposit: 0n },
      ])
      .catch(() => undefined);
    const message = 'expected to fail, filename: "assembly/index.ts" line: 77 col: 2';
    await cli.stderrIncludes(`failed: action 0: the contract panicked: ${message}`);
    const failed = cli.stderr.slice(cli.stderr.indexOf('call triggerAssert'));
    assert.match(failed, /log: log before assert\n {4}log: ABORT: expected to fail/);
  });

  it('a chain-signature request (path, domain, payload), the answer, and the resumed yield', async () => {
    const payload = 'ab'.repeat(32);
    await pool('dev-3.test.near').send('signer.test.near', [
      {
        type: 'FunctionCall',
        methodName: 'sign',
        args: json({ request: { path: 'ethereum-1', payload_v2: { Ecdsa: payload }, domain_id: 0 } }),
        gas: 100n * TGAS,
        deposit: 1n,
      },
    ]);
    await cli.stderrIncludes('yield resumed');
    assert.match(
      cli.stderr,
      new RegExp(
        `chain signature request from dev-3\\.test\\.near: path "ethereum-1", domain 0 \\(secp256k1/ECDSA\\), payload 0x${payload} \\(Ecdsa\\)`,
      ),
    );
    assert.match(
      cli.stderr,
      new RegExp(
        `mpc-responder\\.test\\.near → signer\\.test\\.near\\n {4}call respond\\(.*\\n {4}chain signature answer for payload 0x${payload} \\(Ecdsa\\): ECDSA big_r [0-9a-f]{66}, s [0-9a-f]{64}, recovery_id [01]`,
      ),
    );
    const resumed = entry(cli.stderr, /^#\d+ receipt \w{8}… {2}signer\.test\.near → signer\.test\.near$/m);
    assert.match(resumed, /yield resumed/);
    assert.match(resumed, /ok, returned \{"scheme":"Secp256k1","big_r"/);
  });
});

describe('no transaction log', () => {
  it('with --quiet, and with --json (stderr holds no entry)', async () => {
    for (const flag of ['--quiet', '--json']) {
      const cli = new CliProcess(['node', '--memory', '--rpc-port', '0', flag], { env: { NO_COLOR: '1' } });
      if (flag === '--json') await cli.firstLine();
      else await cli.stdoutIncludes('Press Ctrl+C to stop.');
      const { rpcUrl } = flag === '--json' ? JSON.parse(cli.stdout) : fromSummary(cli.stdout);
      const secret =
        flag === '--json'
          ? JSON.parse(cli.stdout).devAccounts[0].secretKey
          : fromSummary(cli.stdout).key('dev-0.test.near');
      const rpc = new RpcClient([rpcUrl], 30_000);
      await new KeyPool(rpc, 'dev-0.test.near', [KeyPair.fromString(secret)]).send('dev-1.test.near', [
        { type: 'Transfer', deposit: 1n },
      ]);
      const exit = await cli.stop('SIGTERM');
      assert.equal(exit.code, 0, exit.stderr);
      assert.doesNotMatch(exit.stderr, /Transfer|#\d+ tx /, flag);
      assert.doesNotMatch(exit.stdout, /Transfer|#\d+ tx /, flag);
    }
  });
});
