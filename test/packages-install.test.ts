/**
 * The packages people install: `npm run pack`'s tarballs of the CLI, the TypeScript client and the test harness
 * installed into an empty project outside the repository (`shadebox`, `near-sandbox` and `@shadebox/client` work
 * there, against a stack the installed CLI starts; `@shadebox/testing` starts, reverts and stops one), and `pip install ./python` into a fresh venv (the Python client imports and
 * talks to that stack). Registry packages come from npm's cache when it has them (`--prefer-offline`).
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { anvilPackageName } from '@shadebox/cli';
import { CliProcess, REPO_ROOT } from '../packages/cli/test-support/cli-process.js';

/** npm install of the tarballs and pip's venv can take minutes on a loaded machine. */
const STEP_TIMEOUT_MS = 300_000;

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The environment of a child: without npm's per-run variables (a child npm must read its own project). */
function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^npm_(?!config_(cache|registry|userconfig)$)/i.test(key)) continue;
    if (key === 'NODE_OPTIONS' || key === 'SHADEBOX_LOG') continue;
    env[key] = value;
  }
  return { ...env, ...extra };
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), STEP_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

let work: string;
let project: string;
let stack: CliProcess | undefined;

before(async () => {
  work = await mkdtemp(join(tmpdir(), 'shadebox-packages-'));
  project = join(work, 'project');
});

after(async () => {
  await stack?.stop();
  await rm(work, { recursive: true, force: true });
});

describe('installable packages', { timeout: 4 * STEP_TIMEOUT_MS }, () => {
  it('npm run pack: the CLI and the client install into an empty project and run there', async () => {
    const pack = await run(process.execPath, ['scripts/pack.mjs', '--out', join(work, 'pack')], REPO_ROOT);
    assert.equal(pack.code, 0, pack.stderr);
    const tarballs = readdirSync(join(work, 'pack')).sort();
    assert.deepEqual(tarballs, [
      'shadebox-cli-0.1.0.tgz',
      'shadebox-client-0.1.0.tgz',
      'shadebox-testing-0.1.0.tgz',
    ]);

    await run('mkdir', ['-p', project], work);
    await writeFile(
      join(project, 'package.json'),
      '{"name":"try-shadebox","private":true,"type":"module"}\n',
    );
    const install = await run(
      'npm',
      [
        'install',
        '--prefer-offline',
        '--no-audit',
        '--no-fund',
        ...tarballs.map((t) => join(work, 'pack', t)),
      ],
      project,
    );
    assert.equal(install.code, 0, install.stderr);
    assert.ok(
      !existsSync(join(project, 'node_modules', '@shadebox', 'cli', 'src', 'cli.test.ts')),
      'no tests',
    );

    const bin = join(project, 'node_modules', '.bin');
    const version = await run(join(bin, 'shadebox'), ['--version'], project);
    assert.equal(version.stdout, 'shadebox 0.1.0\n', version.stderr);
    const sandbox = await run(join(bin, 'near-sandbox'), ['--version'], project);
    assert.match(sandbox.stdout, /^near-sandbox \(release 0\.1\.0\)/, sandbox.stderr);

    // The installed CLI runs the whole stack from the project, its home in ./.shadebox.
    stack = new CliProcess(['up', '--rpc-port', '0', '--agent-port', '0', '--json'], {
      cwd: project,
      command: join(bin, 'shadebox'),
    });
    const ready = JSON.parse(await stack.firstLine());
    assert.equal(ready.home, join(project, '.shadebox', 'node'));
    // anvil's platform package came with the install (an optional dependency of the CLI): the EVM chain runs.
    if (anvilPackageName() !== undefined) {
      assert.ok(existsSync(join(project, 'node_modules', anvilPackageName()!, 'package.json')));
      assert.match(ready.evm?.rpcUrl, /^http:\/\/127\.0\.0\.1:\d+$/);
    }
    await stack.stdoutIncludes('"agent-ready"');
    const agentAccountId = JSON.parse(stack.stdout.split('\n')[1]!).agentAccountId;

    const account = await run(
      join(bin, 'shadebox'),
      ['account', 'agent.test.near', '--rpc', ready.rpcUrl, '--json'],
      project,
    );
    assert.equal(account.code, 0, account.stderr);
    assert.notEqual(JSON.parse(account.stdout).account.code_hash, '11111111111111111111111111111111');

    await writeFile(
      join(project, 'client.mjs'),
      "import { agentAccountId } from '@shadebox/client';\nconsole.log(JSON.stringify(await agentAccountId()));\n",
    );
    const client = await run(process.execPath, ['client.mjs'], project, { AGENT_API_URL: ready.agentApiUrl });
    assert.equal(client.code, 0, client.stderr);
    assert.deepEqual(JSON.parse(client.stdout), { accountId: agentAccountId });

    // The harness starts a stack of its own (the CLI inside its tarball), signs, reverts and stops it.
    await writeFile(
      join(project, 'harness.mjs'),
      [
        "import { startStack } from '@shadebox/testing';",
        'const stack = await startStack();',
        'const id = await stack.snapshot();',
        "const signature = await stack.agent.requestSignature({ path: 'ethereum-1', payload: 'ab'.repeat(32) });",
        'await stack.revert(id);',
        'await stack.stop();',
        'console.log(JSON.stringify({ scheme: signature.scheme, agent: stack.agentAccountId }));',
        '',
      ].join('\n'),
    );
    const harness = await run(process.execPath, ['harness.mjs'], project);
    assert.equal(harness.code, 0, harness.stderr);
    const harnessResult = JSON.parse(harness.stdout);
    assert.equal(harnessResult.scheme, 'Secp256k1');
    assert.match(harnessResult.agent, /^[0-9a-f]{64}$/);

    // pip install ./python into a fresh venv: built by python/build_backend, nothing from the network.
    const venv = join(work, 'venv');
    const created = await run('python3', ['-m', 'venv', venv], work);
    assert.equal(created.code, 0, created.stderr);
    const pip = await run(join(venv, 'bin', 'pip'), ['install', '--no-index', './python'], REPO_ROOT);
    assert.equal(pip.code, 0, pip.stderr + pip.stdout);
    assert.match(pip.stdout, /Successfully installed shadebox-agent-0\.1\.0/);
    const python = await run(
      join(venv, 'bin', 'python'),
      ['-c', 'import json, shadebox_agent; print(json.dumps(shadebox_agent.agent_account_id()))'],
      work,
      { AGENT_API_URL: ready.agentApiUrl },
    );
    assert.equal(python.code, 0, python.stderr);
    assert.equal(JSON.parse(python.stdout).accountId, agentAccountId);
  });
});
