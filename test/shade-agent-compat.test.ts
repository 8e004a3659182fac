/**
 * The original TypeScript client, `@neardefi/shade-agent-js@1.0.4` from npm, UNCHANGED, against `shadebox up`.
 *
 * The package (`"type": "module"` with `"main": "index.cjs"`, tsup-bundled CommonJS with its dependencies
 * inlined) is loaded by a plain node child process (no tsx, NODE_OPTIONS empty), both through ESM `import`
 * and CJS `require`. It builds its URL from `API_PORT` and host `localhost` (NEXT_PUBLIC_contractId is
 * unset, so not `shade-agent-api`); `localhost` reaches the agent API on 127.0.0.1. Its import side effects
 * (dotenv reading `./.env.development.local`, console lines "Using default RPC provider") are harmless: the
 * child runs in a temporary app directory (node_modules links to the installed package) and prints its results on a marked line.
 * Both it and `@shadebox/client` sign viem's `keccak256` output as is (`0x…`): the agent API drops the prefix.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdir, symlink } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { createAgentClient, toEvmSignature } from '@shadebox/client';
import {
  derivedPublicKey,
  type EcdsaSignatureResponse,
  evmAddress,
  najToSecp256k1PublicKey,
  recoverEcdsaPublicKey,
} from '@shadebox/mpc';
import { keccak256, recoverAddress, toBytes } from 'viem';
import { CliProcess, rpc, tempDir } from '../packages/cli/test-support/cli-process.js';

const run = promisify(execFile);
/** The installed package's directory (root devDependency). */
const SAJ_DIR = dirname(createRequire(import.meta.url).resolve('@neardefi/shade-agent-js/package.json'));
const PAYLOAD = 'c0ffee'.padEnd(64, '5a');
const MARK = 'SAJ-RESULT ';

/** The child's program: every wrapper the brief names, results as one JSON line. `load` imports the package. */
const program = (load: string) => `
${load}
const { agentAccountId, agentInfo, agentView, agentCall, requestSignature } = saj;
const id = await agentAccountId();
const info = await agentInfo();
const view = await agentView({ methodName: 'get_agent', args: { account_id: id.accountId } });
const call = await agentCall({ methodName: 'get_mpc_contract_id', args: {} });
const signature = await requestSignature({ path: 'ethereum-1', payload: '${PAYLOAD}', keyType: 'Ecdsa' });
console.log(${JSON.stringify(MARK)} + JSON.stringify({ id, info, view, call, signature }));
`;

interface Results {
  id: { accountId: string };
  info: { codehash?: string; checksum?: string };
  view: { codehash?: string };
  call: unknown;
  signature: EcdsaSignatureResponse;
}

describe('@neardefi/shade-agent-js 1.0.4 against shadebox up', () => {
  let cli: CliProcess;
  let agentPort: string;
  let agentAccountId: string;
  let rootKey: string;
  let cwd: string;

  before(async () => {
    cli = new CliProcess(['up', '--memory', '--rpc-port', '0', '--agent-port', '0', '--json']);
    const ready = JSON.parse(await cli.firstLine()) as { rpcUrl: string; agentApiUrl: string };
    agentPort = new URL(ready.agentApiUrl).port;
    await cli.stdoutIncludes('"agent-ready"');
    const line = cli.stdout.split('\n').find((l) => l.includes('"agent-ready"'))!;
    agentAccountId = JSON.parse(line).agentAccountId;
    const view = await rpc<{ result: number[] }>(ready.rpcUrl, 'query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: 'signer.test.near',
      method_name: 'public_key',
      args_base64: Buffer.from(JSON.stringify({ domain_id: 0 })).toString('base64'),
    });
    rootKey = JSON.parse(Buffer.from(view.result).toString());
    // A bare app directory whose node_modules holds the package, so the child imports it by name.
    cwd = await tempDir('shadebox-saj-');
    await mkdir(join(cwd, 'node_modules', '@neardefi'), { recursive: true });
    await symlink(SAJ_DIR, join(cwd, 'node_modules', '@neardefi', 'shade-agent-js'), 'dir');
  });

  after(async () => {
    await cli?.stop();
  });

  async function runChild(args: string[]): Promise<Results> {
    const env: NodeJS.ProcessEnv = { ...process.env, API_PORT: agentPort, NODE_OPTIONS: '' };
    delete env.NEXT_PUBLIC_contractId;
    delete env.NEAR_SEED_PHRASE;
    delete env.AGENT_API_URL;
    const { stdout } = await run(process.execPath, args, { cwd, env, timeout: 20_000 });
    const line = stdout.split('\n').find((l) => l.startsWith(MARK));
    assert.ok(line, `no result line in:\n${stdout}`);
    return JSON.parse(line.slice(MARK.length)) as Results;
  }

  function check(r: Results) {
    assert.equal(r.id.accountId, agentAccountId);
    assert.match(r.info.codehash ?? '', /^[0-9a-f]{64}$/);
    assert.deepEqual(r.view, r.info);
    assert.equal(r.call, 'signer.test.near');
    assert.equal(r.signature.scheme, 'Secp256k1');
    const derived = najToSecp256k1PublicKey(derivedPublicKey(rootKey, 'agent.test.near', 'ethereum-1', 0));
    assert.deepEqual(
      recoverEcdsaPublicKey(r.signature, Buffer.from(PAYLOAD, 'hex')),
      derived,
      'the signature verifies under the key derived for (agent.test.near, ethereum-1)',
    );
  }

  it('ESM import (node --input-type=module): every wrapper works and the signature verifies', async () => {
    const load = "const saj = await import('@neardefi/shade-agent-js');";
    check(await runChild(['--input-type=module', '-e', program(load)]));
  });

  it("viem's keccak256 (0x…) as the payload: both clients get a signature recovering to the derived address", async () => {
    const hash = keccak256(toBytes('shadebox: a 0x payload from viem'));
    const load = "const saj = await import('@neardefi/shade-agent-js');";
    const child = `${load}
const signature = await saj.requestSignature({ path: 'ethereum-1', payload: '${hash}', keyType: 'Ecdsa' });
console.log(${JSON.stringify(MARK)} + JSON.stringify({ signature }));`;
    const fromSaj = (await runChild(['--input-type=module', '-e', child])).signature;
    const client = createAgentClient({ baseUrl: `http://127.0.0.1:${agentPort}/api/agent` });
    const fromClient = await client.requestSignature({ path: 'ethereum-1', payload: hash });
    const address = evmAddress(
      najToSecp256k1PublicKey(derivedPublicKey(rootKey, 'agent.test.near', 'ethereum-1', 0)),
    );
    for (const signature of [fromSaj, fromClient]) {
      assert.equal(signature.scheme, 'Secp256k1', JSON.stringify(signature));
      assert.equal(await recoverAddress({ hash, signature: toEvmSignature(signature) }), address);
    }
  });

  it('CJS require: the same', async () => {
    const load = "const saj = require('@neardefi/shade-agent-js');";
    check(
      await runChild([
        '-e',
        `(async () => {${program(load)}})().catch((e) => { console.error(e); process.exit(1); });`,
      ]),
    );
  });
});
