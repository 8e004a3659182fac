/**
 * The Shade Agent Framework 2.0's own agent library, ShadeClient (@neardefi/shade-agent-js 2.2.0), through its
 * template's flow, unchanged, against `shadebox up --chain-id testnet --agent-contract v2 --evm`
 * (docs/shade-agent-framework.md): create, fund, the owner's approvals and whitelisting as the `shade` CLI makes
 * them in local mode, register(), request_signature checked against the address chainsig.js derives, numKeys 10
 * concurrent calls, an Eddsa signature, and the signed EIP-1559 transaction mined on the stack's EVM chain. The
 * scenario and its runner live outside the repository, in `../shared/peer-suites/` (the header of
 * `run-shade-agent-framework` says what each step does); without that folder this test is skipped.
 *
 * The runner's installs (Node 22, shade-agent-js built from source, the template's dependencies) are kept between
 * runs in SUITE_WORK (default: a fixed folder in the temp dir), so only the first run pays for them. Every step of
 * the scenario must pass.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import { CliProcess, REPO_ROOT } from '../packages/cli/test-support/cli-process.js';

const PEER_SUITES = join(REPO_ROOT, '..', 'shared', 'peer-suites');
const RUNNER = join(PEER_SUITES, 'run-shade-agent-framework');
const SCENARIO = join(PEER_SUITES, 'shade-agent-framework-scenario.mjs');
/** The cold install (under a minute from an empty npm cache when measured) and the scenario: bounded, generous. */
const TIMEOUT_MS = 30 * 60_000;

const skip = existsSync(RUNNER)
  ? false
  : `../shared/peer-suites is absent (${RUNNER} not found): the Shade Agent Framework's scenario cannot run`;

interface KeyedAccount {
  accountId: string;
  secretKey: string;
}
interface Ready {
  rpcUrl: string;
  agentContractId: string;
  agentContractOwner: string;
  mpcContractId: string;
  evm?: { rpcUrl: string };
  accounts: KeyedAccount[];
  devAccounts: KeyedAccount[];
}

let stack: CliProcess | undefined;
after(async () => {
  await stack?.stop();
});

test("the Shade Agent Framework 2.0's template flow passes every step against up --chain-id testnet --agent-contract v2", {
  skip,
  timeout: TIMEOUT_MS,
}, async () => {
  // Every step is one `await step(...)` in the scenario; with ETH_RPC_URL set, all of them run.
  const steps = [...readFileSync(SCENARIO, 'utf8').matchAll(/\bawait step\(/g)].length;
  assert.ok(steps > 0, `no steps found in ${SCENARIO}`);

  stack = new CliProcess([
    'up',
    '--memory',
    '--chain-id',
    'testnet',
    '--agent-contract',
    'v2',
    '--evm',
    '--json',
    '--rpc-port',
    '0',
    '--agent-port',
    '0',
  ]);
  const ready = JSON.parse(await stack.firstLine()) as Ready;
  assert.ok(ready.evm, `up --evm names no EVM chain in its ready line: ${JSON.stringify(ready)}`);
  const owner = [...ready.accounts, ...ready.devAccounts].find(
    (a) => a.accountId === ready.agentContractOwner,
  );
  assert.ok(
    owner,
    `the agent contract's owner ${ready.agentContractOwner} is not among the ready line's accounts`,
  );
  const sponsor = ready.devAccounts[0];
  assert.ok(sponsor, 'the ready line lists no dev account');

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SUITE_WORK: process.env.SUITE_WORK ?? join(tmpdir(), 'shadebox-peer-shade-agent-framework'),
    NEAR_RPC_URL: ready.rpcUrl,
    AGENT_CONTRACT_ID: ready.agentContractId,
    MPC_CONTRACT_ID: ready.mpcContractId,
    SPONSOR_ACCOUNT_ID: sponsor.accountId,
    SPONSOR_PRIVATE_KEY: sponsor.secretKey,
    OWNER_ACCOUNT_ID: owner.accountId,
    OWNER_PRIVATE_KEY: owner.secretKey,
    ETH_RPC_URL: ready.evm.rpcUrl,
    NETWORK_ID: 'testnet',
    // The built-in 2.0 contract has the released interface: no NOTE-only fallbacks for the pre-release build.
    PRE_RELEASE_FALLBACKS: '0',
  };
  delete env.NODE_OPTIONS;
  delete env.SHADEBOX_LOG;
  delete env.FUND_NEAR;
  delete env.DERIVATION_PATH;
  const child = spawn(RUNNER, [], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
  const tail = output.slice(-6000);
  assert.equal(code, 0, `the runner exited with ${code}:\n${tail}`);
  assert.doesNotMatch(output, /^FAIL /m, tail);
  const summary = [...output.matchAll(/^(\d+) passed, (\d+) failed$/gm)];
  assert.equal(summary.length, 1, `one closing "N passed, N failed" line:\n${tail}`);
  assert.deepEqual([Number(summary[0]![1]), Number(summary[0]![2])], [steps, 0], tail);
  assert.equal([...output.matchAll(/^PASS /gm)].length, steps, tail);
});
