/**
 * The admission queue end to end: 100 concurrent `requestSignature` calls through the original
 * `@neardefi/shade-agent-js@1.0.4` client against `shadebox up` at the default funding (0.3 NEAR, so about
 * two 100 Tgas calls fit at once): every call succeeds, every signature verifies under the key derived for
 * its path, and no call failure is logged. Driven as in shade-agent-compat.test.ts (a plain node child).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import {
  derivedPublicKey,
  type EcdsaSignatureResponse,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
} from '@shadebox/mpc';
import { CliProcess, rpc, tempDir } from '../packages/cli/test-support/cli-process.js';

const run = promisify(execFile);
const SAJ_DIR = dirname(createRequire(import.meta.url).resolve('@neardefi/shade-agent-js/package.json'));
const MARK = 'SAJ-RESULT ';
const CALLS = 100;
const payloadOf = (i: number) => i.toString(16).padStart(4, '0').padEnd(64, 'a5');

/** 100 requestSignature calls at once; each result (or error text) on one marked JSON line. */
const PROGRAM = `
const { requestSignature } = await import('@neardefi/shade-agent-js');
const payloadOf = ${payloadOf.toString()};
const results = await Promise.allSettled(
  Array.from({ length: ${CALLS} }, (_, i) =>
    requestSignature({ path: 'ethereum-' + (i % 4), payload: payloadOf(i), keyType: 'Ecdsa' }),
  ),
);
console.log(${JSON.stringify(MARK)} + JSON.stringify(results.map((r) =>
  r.status === 'fulfilled' ? { ok: r.value } : { error: String(r.reason?.stack ?? r.reason) })));
`;

describe('admission: 100 concurrent requestSignature calls at the default funding', () => {
  let cli: CliProcess;
  let agentPort: string;
  let rpcUrl: string;
  let agentAccountId: string;
  let rootKey: string;
  let cwd: string;

  before(async () => {
    cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json'], {
      env: { AGENT_FUNDING_AMOUNT: undefined, AGENT_KEY_POOL_SIZE: undefined },
    });
    const ready = JSON.parse(await cli.firstLine()) as {
      rpcUrl: string;
      agentApiUrl: string;
      mpcContractId: string;
    };
    agentPort = new URL(ready.agentApiUrl).port;
    rpcUrl = ready.rpcUrl;
    await cli.stdoutIncludes('"agent-ready"');
    agentAccountId = JSON.parse(cli.stdout.split('\n')[1]).agentAccountId;
    const view = await rpc<{ result: number[] }>(rpcUrl, 'query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: ready.mpcContractId,
      method_name: 'public_key',
      args_base64: Buffer.from(JSON.stringify({ domain_id: 0 })).toString('base64'),
    });
    rootKey = JSON.parse(Buffer.from(view.result).toString());
    cwd = await tempDir('shadebox-admission-');
    await mkdir(join(cwd, 'node_modules', '@neardefi'), { recursive: true });
    await symlink(SAJ_DIR, join(cwd, 'node_modules', '@neardefi', 'shade-agent-js'), 'dir');
  });

  after(async () => {
    await cli?.stop();
  });

  it('all succeed and all signatures verify', { timeout: 600_000 }, async () => {
    const account = await rpc<{ amount: string }>(rpcUrl, 'query', {
      request_type: 'view_account',
      finality: 'optimistic',
      account_id: agentAccountId,
    });
    // The default funding: 0.3 NEAR, less what boot spent. Two 100 Tgas calls (0.1 NEAR prepaid each) fit.
    assert.ok(BigInt(account.amount) <= 3n * 10n ** 23n && BigInt(account.amount) > 29n * 10n ** 22n);

    const env: NodeJS.ProcessEnv = { ...process.env, API_PORT: agentPort, NODE_OPTIONS: '' };
    delete env.NEXT_PUBLIC_contractId;
    delete env.NEAR_SEED_PHRASE;
    delete env.AGENT_API_URL;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROGRAM], {
      cwd,
      env,
      timeout: 540_000,
      maxBuffer: 64 * 1024 * 1024,
    });
    const line = stdout.split('\n').find((l) => l.startsWith(MARK));
    assert.ok(line, `no result line in:\n${stdout}`);
    const results = JSON.parse(line.slice(MARK.length)) as Array<{
      ok?: EcdsaSignatureResponse;
      error?: string;
    }>;
    assert.equal(results.length, CALLS);
    const failed = results.flatMap((r, i) => (r.error ? [`${i}: ${r.error}`] : []));
    assert.deepEqual(failed, [], 'every call succeeds');
    const derived = [0, 1, 2, 3].map((p) =>
      najToSecp256k1PublicKey(derivedPublicKey(rootKey, 'agent.test.near', `ethereum-${p}`, 0)),
    );
    results.forEach((r, i) => {
      assert.equal(r.ok!.scheme, 'Secp256k1');
      assert.deepEqual(
        recoverEcdsaPublicKey(r.ok!, Buffer.from(payloadOf(i), 'hex')),
        derived[i % 4],
        `signature ${i} verifies under the key derived for ethereum-${i % 4}`,
      );
    });
    assert.doesNotMatch(cli.stderr, /call failed/, 'no call failure logged');
  });
});
