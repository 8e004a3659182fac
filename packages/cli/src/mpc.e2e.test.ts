/**
 * `--mpc` through real processes: `shadebox node init --mpc` leaves a home with the contracts deployed and
 * the keys saved; `shadebox node --home … --mpc` restarts on it without redeploying, with the same root keys
 * (so derived addresses are stable). Bad flag combinations are usage errors, tested in process (cli.test.ts).
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { CliProcess, runCli, tempDir } from '../test-support/cli-process.js';

async function view(rpcUrl: string, accountId: string, method: string, args: unknown): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'query',
      params: {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: accountId,
        method_name: method,
        args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
      },
    }),
  });
  const { result } = (await response.json()) as { result: { result: number[] } };
  return JSON.parse(Buffer.from(result.result).toString('utf8'));
}

describe('shadebox --mpc', () => {
  it('node init --mpc deploys into the new home; node --mpc restarts on it with the same keys', async () => {
    const home = join(await tempDir(), 'home');
    const init = await runCli(['node', 'init', '--home', home, '--mpc']);
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /chain signatures: signer\.test\.near \(signer\), agent\.test\.near \(agent\)/);
    for (const file of ['mpc_keys.json', 'mpc_accounts.json']) {
      assert.ok(existsSync(join(home, file)), file);
      assert.equal((await stat(join(home, file))).mode & 0o777, 0o600, file);
    }
    const saved = JSON.parse(await readFile(join(home, 'mpc_keys.json'), 'utf8'));

    for (let run = 0; run < 2; run++) {
      const node = new CliProcess(['node', '--home', home, '--mpc', '--rpc-port', '0', '--json']);
      const ready = JSON.parse(await node.firstLine());
      assert.equal(ready.mpcContractId, 'signer.test.near');
      assert.equal(ready.agentContractId, 'agent.test.near');
      assert.equal(
        await view(ready.rpcUrl, 'signer.test.near', 'public_key', { domain_id: 0 }),
        saved.secp256k1_public_key,
      );
      assert.equal(
        await view(ready.rpcUrl, 'signer.test.near', 'public_key', { domain_id: 1 }),
        saved.ed25519_public_key,
      );
      assert.equal(await view(ready.rpcUrl, 'agent.test.near', 'get_owner', {}), 'test.near');
      node.child.kill('SIGTERM');
      const exit = await node.exited;
      assert.equal(exit.code, 0, exit.stderr);
    }
  });
});
