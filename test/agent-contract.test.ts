/**
 * Your own agent contract end to end: `shadebox up` with every agent contract (the built-in one and, through
 * `--agent-contract-wasm`, the Shade Agent Framework 2.0 template) against every signer (Shadebox's, NEAR's
 * 3.13.0 and 2.2.0, and the legacy chain-signatures v1, which is ECDSA only); the agent API
 * registers in the contract's own flow, and `request_signature` through the original
 * `@neardefi/shade-agent-js` client (unchanged, a plain node child process) gives ECDSA and EdDSA signatures
 * that @noble/curves verifies under the keys NEAR's derivation gives for (agent contract, path).
 * Then `shadebox node --mpc` with the template and an agent API whose funding account is not the owner
 * (it waits for the owner's whitelist_agent), and the flags' refusals.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { loadAgentApiConfig, type RunningAgentApi, startAgentApi } from '@shadebox/agent-api';
import { agentWasmPath } from '@shadebox/contracts';
import { derivedPublicKey, najToEd25519PublicKey, najToSecp256k1PublicKey } from '@shadebox/mpc';
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { CliProcess, REPO_ROOT, runCli, tempDir } from '../packages/cli/test-support/cli-process.js';
import { captureLogs, until } from './agent-stack-helpers.js';

/** The Shade Agent Framework 2.0 template build (see ../shared/corpus/MANIFEST.md). */
const TEMPLATE = join(
  REPO_ROOT,
  '..',
  'shared',
  'corpus',
  'shade',
  'shade_contract_template-2025-12-11.wasm',
);
const hasTemplate = existsSync(TEMPLATE);
const noTemplate = hasTemplate ? false : `the template build is not at ${TEMPLATE}`;

interface AgentContractCase {
  name: string;
  args: string[];
  /** What `get_agent` shows for the registered agent. */
  record: (agentAccountId: string) => unknown;
  /** Its `sign` calls use only `payload_v2` (signer 2.x and later). */
  payloadV2Only?: boolean;
}

/** The codehash `shadebox up` approves and registers with by default (sha256 of "shadebox local agent"). */
const LOCAL_AGENT_CODEHASH = createHash('sha256').update('shadebox local agent').digest('hex');

const AGENT_CONTRACTS: AgentContractCase[] = [
  {
    name: 'the built-in agent contract',
    args: [],
    record: () => ({ codehash: LOCAL_AGENT_CODEHASH }),
  },
  {
    name: 'the Shade Agent Framework 2.0 template',
    args: ['--agent-contract-wasm', TEMPLATE],
    record: (id) => ({ account_id: id, verified: true, whitelisted: true, codehash: 'not-in-a-tee' }),
    payloadV2Only: true,
  },
];

/** NEAR's production signer builds (see ../shared/corpus/MANIFEST.md). */
const MPC_CORPUS = join(REPO_ROOT, '..', 'shared', 'corpus', 'mpc');

/**
 * The signers `up` can run: one line each (the flags that choose it). `v1`: the legacy chain-signatures v1
 * contract, ECDSA only, which reads only the legacy request (`payload` as 32 numbers) and answers without
 * `scheme`.
 */
const SIGNERS: Array<{ name: string; args: string[]; v1?: boolean }> = [
  { name: 'the built-in signer', args: [] },
  { name: 'signer 3.13.0', args: ['--signer-wasm', join(MPC_CORPUS, 'signer-3_13_0.wasm')] },
  { name: 'signer 2.2.0', args: ['--signer-wasm', join(MPC_CORPUS, 'signer-2_2_0.wasm')] },
  { name: 'chain-signatures v1', args: ['--signer-wasm', join(MPC_CORPUS, 'chainsig-v1.wasm')], v1: true },
];

const run = promisify(execFile);
const SAJ_DIR = dirname(createRequire(import.meta.url).resolve('@neardefi/shade-agent-js/package.json'));
const MARK = 'SAJ-RESULT ';
const ECDSA_PAYLOAD = 'be'.repeat(16) + 'ef'.repeat(16);
const EDDSA_MESSAGE = Buffer.from('a Solana message signed for the agent').toString('hex');

/** The child's program: the client's own calls, results on one marked line. */
const PROGRAM = `
const saj = await import('@neardefi/shade-agent-js');
const id = await saj.agentAccountId();
const info = await saj.agentInfo();
const ecdsa = await saj.requestSignature({ path: 'ethereum-1', payload: '${ECDSA_PAYLOAD}', keyType: 'Ecdsa' });
const eddsa = await saj.requestSignature({ path: 'solana-1', payload: '${EDDSA_MESSAGE}', keyType: 'Eddsa' });
console.log(${JSON.stringify(MARK)} + JSON.stringify({ id, info, ecdsa, eddsa }));
`;

/** The chain-signatures v1 contract's refusal of a `sign` call in the `payload_v2` format, as the agent API relays it. */
const V1_REFUSAL = {
  code: 'contract_panic',
  message: 'Failed to deserialize input from JSON.',
  details: {
    ActionError: {
      index: 0,
      kind: {
        FunctionCallError: {
          ExecutionError: 'Smart contract panicked: Failed to deserialize input from JSON.',
        },
      },
    },
  },
};

/** What the client returns: a signature, or the agent API's `{error}` (the client relays it, it does not throw). */
interface SajResults {
  id: { accountId: string };
  info: unknown;
  ecdsa: {
    scheme?: string;
    big_r: { affine_point: string };
    s: { scalar: string };
    recovery_id: number;
    error?: unknown;
  };
  eddsa?: { scheme?: string; signature?: number[]; error?: unknown };
}

/** Runs the original client against the agent API on `port`, from a bare app directory. */
async function runShadeAgentJs(port: string): Promise<SajResults> {
  const cwd = await tempDir('shadebox-saj-');
  await mkdir(join(cwd, 'node_modules', '@neardefi'), { recursive: true });
  await symlink(SAJ_DIR, join(cwd, 'node_modules', '@neardefi', 'shade-agent-js'), 'dir');
  const env: NodeJS.ProcessEnv = { ...process.env, API_PORT: port, NODE_OPTIONS: '' };
  delete env.NEXT_PUBLIC_contractId;
  delete env.NEAR_SEED_PHRASE;
  const { stdout } = await run(process.execPath, ['--input-type=module', '-e', PROGRAM], {
    cwd,
    env,
    timeout: 60_000,
  });
  const line = stdout.split('\n').find((l) => l.startsWith(MARK));
  assert.ok(line, `no result line in:\n${stdout}`);
  return JSON.parse(line.slice(MARK.length)) as SajResults;
}

const rootKey = (rpcUrl: string, signerId: string, domainId: number) =>
  viewFunction(new RpcClient(rpcUrl, { timeoutMs: 10_000 }), signerId, 'public_key', {
    domain_id: domainId,
  }) as Promise<string>;

/** Both signatures verify with @noble/curves under the keys derived for (agent contract, path). */
async function assertSignatures(
  r: SajResults,
  rpcUrl: string,
  signerId: string,
  agentContractId: string,
  options: { v1?: boolean } = {},
) {
  assert.ok(!r.ecdsa.error, `the ECDSA request failed: ${JSON.stringify(r.ecdsa.error)}`);
  assert.equal(r.ecdsa.scheme, options.v1 ? undefined : 'Secp256k1');
  const expected = najToSecp256k1PublicKey(
    derivedPublicKey(await rootKey(rpcUrl, signerId, 0), agentContractId, 'ethereum-1', 0),
  );
  // SEC1 uncompressed: 0x04 ‖ x ‖ y.
  const publicKey = Uint8Array.from([4, ...expected]);
  const rHex = r.ecdsa.big_r.affine_point.slice(2);
  const signature = new secp256k1.Signature(
    BigInt(`0x${rHex}`),
    BigInt(`0x${r.ecdsa.s.scalar}`),
    r.ecdsa.recovery_id,
  );
  const payload = Buffer.from(ECDSA_PAYLOAD, 'hex');
  assert.ok(
    secp256k1.verify(signature.toBytes('compact'), payload, publicKey, { prehash: false, lowS: true }),
    'ECDSA verifies (low S)',
  );
  assert.deepEqual(signature.recoverPublicKey(payload).toBytes(false), publicKey, 'and recovers to it');
  if (options.v1) {
    // No Ed25519 domain: the request reaches v1, which refuses it with its own error; nothing is signed.
    assert.deepEqual(r.eddsa, { error: V1_REFUSAL });
    return;
  }

  assert.ok(r.eddsa && !r.eddsa.error, `the EdDSA request failed: ${JSON.stringify(r.eddsa?.error)}`);
  assert.equal(r.eddsa.scheme, 'Ed25519');
  const edKey = najToEd25519PublicKey(
    derivedPublicKey(await rootKey(rpcUrl, signerId, 1), agentContractId, 'solana-1', 1),
  );
  assert.ok(
    ed25519.verify(Uint8Array.from(r.eddsa.signature ?? []), Buffer.from(EDDSA_MESSAGE, 'hex'), edKey),
  );
}

for (const signer of SIGNERS) {
  for (const contract of AGENT_CONTRACTS) {
    const skip = contract.args.includes(TEMPLATE) ? noTemplate : false;
    describe(`shadebox up: ${contract.name}, ${signer.name}`, { skip }, () => {
      let cli: CliProcess;
      let ready: { rpcUrl: string; agentApiUrl: string; agentContractId: string; mpcContractId: string };
      let agentAccountId: string;

      before(async () => {
        cli = new CliProcess([
          'up',
          '--memory',
          '--rpc-port',
          '0',
          '--agent-port',
          '0',
          '--json',
          ...contract.args,
          ...signer.args,
        ]);
        ready = JSON.parse(await cli.firstLine());
        await cli.stdoutIncludes('"agent-ready"');
        const line = cli.stdout.split('\n').find((l) => l.includes('"agent-ready"'))!;
        agentAccountId = JSON.parse(line).agentAccountId;
      });
      after(async () => {
        await cli?.stop();
      });

      it('the agent registers in the contract, and shade-agent-js request_signature verifies', async () => {
        const r = await runShadeAgentJs(new URL(ready.agentApiUrl).port);
        assert.equal(r.id.accountId, agentAccountId);
        assert.deepEqual(r.info, contract.record(agentAccountId));
        if (signer.v1 && contract.payloadV2Only) {
          // v1 reads only the legacy `payload`; the contract's own refusal comes back for both.
          assert.deepEqual(r.ecdsa, { error: V1_REFUSAL });
          assert.deepEqual(r.eddsa, { error: V1_REFUSAL });
          return;
        }
        await assertSignatures(r, ready.rpcUrl, ready.mpcContractId, ready.agentContractId, {
          v1: signer.v1,
        });
      });
    });
  }
}

describe('shadebox node --mpc --agent-contract-wasm: an agent API whose funder is not the owner', {
  skip: noTemplate,
}, () => {
  let cli: CliProcess;
  let api: RunningAgentApi | undefined;

  after(async () => {
    await api?.stop();
    await cli?.stop();
  });

  it('waits for the owner to whitelist the agent, then registers and signs', async () => {
    const init = '{"owner_id":"$OWNER","mpc_contract_id":"$MPC_CONTRACT_ID","requires_tee":false}';
    cli = new CliProcess([
      'node',
      '--memory',
      '--mpc',
      '--rpc-port',
      '0',
      '--json',
      '--agent-contract-wasm',
      TEMPLATE,
      '--agent-contract-init',
      init,
    ]);
    const ready = JSON.parse(await cli.firstLine()) as {
      rpcUrl: string;
      agentContractId: string;
      mpcContractId: string;
      accounts: Array<{ accountId: string; secretKey: string }>;
    };
    const rpc = new RpcClient(ready.rpcUrl, { timeoutMs: 30_000 });
    const owner = new KeyPool(rpc, ready.accounts[0]!.accountId, [
      KeyPair.fromString(ready.accounts[0]!.secretKey),
    ]);
    assert.equal(await viewFunction(rpc, ready.agentContractId, 'get_requires_tee', {}), false);

    const funderKey = KeyPair.fromRandom('ed25519');
    const funderId = `funder.${ready.accounts[0]!.accountId}`;
    outcomeResult(
      await owner.send(funderId, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n * ONE_NEAR },
        { type: 'AddKey', publicKey: funderKey.publicKey, accessKey: fullAccessKey() },
      ]),
    );
    api = await startAgentApi(
      loadAgentApiConfig({
        CHAIN_ACCOUNT_ID: funderId,
        CHAIN_ACCOUNT_SECRET_KEY: funderKey.toString(),
        AGENT_CONTRACT_ID: ready.agentContractId,
        NEAR_RPC_URL: ready.rpcUrl,
        AGENT_CODEHASH: 'unused-by-this-contract',
        AGENT_API_PORT: '0',
        TEE_MODE: 'local',
        AGENT_KEY_POOL_SIZE: '1',
        AGENT_API_RETRY_MAX_MS: '200',
      }),
      { log: captureLogs().log },
    );
    const running = api;
    const registered = running.onReady();
    // The funder's whitelist_agent is refused by the contract; the step says what the owner must do.
    await until(
      'the refused whitelisting',
      () => /cannot whitelist the agent/.test(running.status().lastError ?? ''),
      120_000,
    );
    const status = running.status();
    assert.equal(status.stage, 'register');
    assert.match(status.lastError!, /Caller is not the owner/);
    assert.match(
      status.lastError!,
      new RegExp(`whitelist_agent\\(\\{"account_id":"${status.accountId}"\\}\\)`),
    );

    outcomeResult(
      await owner.send(ready.agentContractId, [
        {
          type: 'FunctionCall',
          methodName: 'whitelist_agent',
          args: Buffer.from(JSON.stringify({ account_id: status.accountId })),
          gas: 30n * TGAS,
          deposit: 0n,
        },
      ]),
    );
    assert.equal(await registered, status.accountId);
    const r = await runShadeAgentJs(String(running.port));
    assert.deepEqual(r.info, {
      account_id: status.accountId,
      verified: true,
      whitelisted: true,
      codehash: 'not-in-a-tee',
    });
    await assertSignatures(r, ready.rpcUrl, ready.mpcContractId, ready.agentContractId);
  });
});

describe('a home keeps its agent contract', { skip: noTemplate }, () => {
  it('restarts with the template registered again; another contract on that home is refused (exit 1)', async () => {
    const cwd = await tempDir();
    const up = (wasm: string) =>
      new CliProcess(
        [
          'up',
          '--home',
          'stack',
          '--rpc-port',
          '0',
          '--agent-port',
          '0',
          '--json',
          '--agent-contract-wasm',
          wasm,
        ],
        { cwd },
      );
    for (let run = 0; run < 2; run++) {
      const cli = up(TEMPLATE);
      await cli.stdoutIncludes('"agent-ready"');
      const exit = await cli.stop();
      assert.equal(exit.code, 0, exit.stderr);
    }
    const other = await up(agentWasmPath).exit();
    assert.equal(other.code, 1);
    assert.match(
      other.stderr,
      /shadebox up: error: agent\.test\.near already holds another contract \(code hash 5iKwSCMdCQweo9qEPWqA1oHFPS82w71HGP8BgwgaX8CY\), not .*agent\.wasm \(\w+\): start a new chain \(--reset or another --home\) to deploy it/,
    );
  });
});

describe('--agent-contract-wasm / --agent-contract-init refused clearly (exit 2, nothing started)', () => {
  it('a missing file, bad JSON, an unknown placeholder, init without a contract, no --mpc', async () => {
    const dir = await tempDir();
    const notWasm = join(dir, 'contract.wasm');
    await writeFile(notWasm, 'not wasm');
    const cases: Array<[string[], RegExp]> = [
      [
        ['up', '--agent-contract-wasm', 'missing.wasm'],
        /^shadebox up: error: cannot read --agent-contract-wasm .*missing\.wasm: no such file \(see 'shadebox up --help'\)$/,
      ],
      [['up', '--agent-contract-wasm', notWasm], /contract\.wasm is not a Wasm contract: not a Wasm module/],
      [
        ['up', '--agent-contract-wasm', TEMPLATE, '--agent-contract-init', '{"owner_id": $OWNER}'],
        /^shadebox up: error: invalid value for --agent-contract-init: not JSON \(/,
      ],
      [
        ['node', '--mpc', '--agent-contract-wasm', TEMPLATE, '--agent-contract-init', '{"owner_id":"$ROOT"}'],
        /^shadebox node: error: unknown placeholder \$ROOT in --agent-contract-init \(known: \$OWNER, \$MPC_CONTRACT_ID, \$AGENT_CONTRACT_ID; \$\$ for a \$\)/,
      ],
      [['up', '--agent-contract-init', '{}'], /--agent-contract-init needs --agent-contract-wasm/],
      [
        ['node', '--agent-contract-wasm', TEMPLATE],
        /^shadebox node: error: --agent-contract-wasm needs --mpc/,
      ],
    ];
    for (const [args, message] of cases) {
      if (!hasTemplate && args.includes(TEMPLATE)) continue;
      const exit = await runCli([...args, '--memory', '--rpc-port', '0'], { cwd: dir });
      assert.equal(exit.code, 2, `${args.join(' ')}: ${exit.stderr}`);
      assert.equal(exit.stdout, '');
      assert.match(exit.stderr.trim(), message, args.join(' '));
    }
  });
});
