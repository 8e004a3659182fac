/**
 * Every runnable snippet of README.md, docs/*.md and python/README.md (test/support/doc-snippets.ts: fences
 * tagged sh, ts, js, python, unless marked `<!-- no-run: reason -->`) runs as written against a fresh
 * `shadebox up`, in order, from a project folder outside the repository whose node_modules is the repository's
 * (so `npx shadebox` and the imports resolve as in a project that installed Shadebox); python/README.md's
 * shell blocks, written for the repository root, run there. The stack's home is that folder's ./.shadebox.
 *
 * What is adapted, and only this: the stack listens on free ports, so the default addresses in the snippets
 * (127.0.0.1:3030, :3031, :3140) are replaced with the stack's, and its config.json names its RPC port. A shell
 * line that starts a server (`shadebox up`, `shadebox node`) runs in the block's own folder on free ports
 * (`--rpc-port 0` unless given, `--agent-port 0` for up) until it is ready, then is stopped with SIGTERM and
 * must exit 0. A shell block succeeds when it exits 0 and prints no JSON-RPC `"error":`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliProcess, REPO_ROOT } from '../packages/cli/test-support/cli-process.js';
import { repositorySnippets, type Snippet, startsServer } from './support/doc-snippets.js';

const SNIPPET_TIMEOUT_MS = 90_000;
const BIN = join(REPO_ROOT, 'node_modules', '.bin');

let project: string;
let stack: CliProcess;
let env: NodeJS.ProcessEnv;
const replacements: Array<[string, string]> = [];
const folders: string[] = [];

/** A folder outside the repository that resolves packages as a project with Shadebox installed. */
async function projectFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shadebox-docs-'));
  folders.push(dir);
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{"name":"docs-snippets","private":true,"type":"module"}\n');
  return dir;
}

function adapt(code: string): string {
  let out = code;
  for (const [from, to] of replacements) out = out.split(from).join(to);
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), SNIPPET_TIMEOUT_MS);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Starts a server line until it is ready, then stops it: it must have started and must exit 0. */
async function runServerLine(line: string, cwd: string): Promise<void> {
  const words = line.trim().replace(/^npx /, '').split(/\s+/);
  const args = words.slice(1);
  if (!args.includes('--rpc-port')) args.push('--rpc-port', '0');
  if (args[0] === 'up' && !args.includes('--agent-port')) args.push('--agent-port', '0');
  const server = new CliProcess(args, {
    cwd,
    command: join(BIN, 'shadebox'),
    env: { AGENT_API_URL: undefined },
  });
  await server.stdoutIncludes(args.includes('--json') ? '"event":"ready"' : 'Press Ctrl+C');
  const exit = await server.stop('SIGTERM');
  assert.equal(exit.code, 0, `${line}\n${exit.stderr}`);
}

/** A line without its trailing `# comment` (outside quotes). */
function withoutComment(line: string): string {
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') quote = c;
    else if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return line.slice(0, i).trimEnd();
  }
  return line;
}

async function runShell(snippet: Snippet): Promise<void> {
  const code = adapt(snippet.code);
  const lines = code.split('\n');
  if (!lines.some(startsServer)) {
    const cwd = snippet.where.startsWith('python/') ? REPO_ROOT : project;
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', code], cwd);
    assert.equal(
      result.code,
      0,
      `${snippet.where}\n${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
    assert.doesNotMatch(result.stdout, /"error":/, `${snippet.where}: a JSON-RPC error\n${result.stdout}`);
    return;
  }
  // One command per line; the block's lines share a folder of their own (a line may use what one before made).
  const dir = await projectFolder();
  for (const raw of lines) {
    const line = withoutComment(raw).trim();
    if (line === '') continue;
    if (startsServer(line)) {
      await runServerLine(line, dir);
      continue;
    }
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', line], dir);
    assert.equal(
      result.code,
      0,
      `${snippet.where}: ${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
}

async function runScript(snippet: Snippet, index: number): Promise<void> {
  const code = adapt(snippet.code);
  const file = join(
    project,
    `snippet-${index}.${snippet.language === 'python' ? 'py' : snippet.language === 'ts' ? 'mts' : 'mjs'}`,
  );
  await writeFile(file, code);
  const result =
    snippet.language === 'python'
      ? await run('python3', [file], project)
      : await run(process.execPath, ['--import', 'tsx', file], project);
  assert.equal(
    result.code,
    0,
    `${snippet.where}\n${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
  );
}

const snippets = repositorySnippets(REPO_ROOT);

before(async () => {
  project = await projectFolder();
  stack = new CliProcess(['up', '--rpc-port', '0', '--agent-port', '0', '--json'], { cwd: project });
  const ready = JSON.parse(await stack.firstLine());
  await stack.stdoutIncludes('"agent-ready"');
  // The home's config.json names the port the stack really listens on, as it does the default one.
  const configPath = join(ready.home, 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  config.rpc.addr = new URL(ready.rpcUrl).host;
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const rpc = new URL(ready.rpcUrl).host;
  const archival = new URL(ready.archivalRpcUrl).host;
  const agent = new URL(ready.agentApiUrl).host;
  replacements.push(
    ['127.0.0.1:3030', rpc],
    ['localhost:3030', rpc],
    ['127.0.0.1:3031', archival],
    ['127.0.0.1:3140', agent],
    ['localhost:3140', agent],
  );
  // The stack's EVM chain (anvil), when it runs: its default port is 8545.
  if (ready.evm) replacements.push(['127.0.0.1:8545', new URL(ready.evm.rpcUrl).host]);
  env = {
    ...process.env,
    PATH: `${BIN}:${process.env.PATH}`,
    AGENT_API_URL: ready.agentApiUrl,
    // What @neardefi/shade-agent-js reads instead (it calls localhost:API_PORT).
    API_PORT: new URL(ready.agentApiUrl).port,
    PYTHONPATH: join(REPO_ROOT, 'python'),
  };
  delete env.NODE_OPTIONS;
  delete env.SHADEBOX_LOG;
});

after(async () => {
  await stack?.stop();
  await Promise.all(folders.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe('docs snippets run as written', () => {
  it('every skipped snippet says why', () => {
    for (const s of snippets)
      if (s.noRun !== undefined) assert.ok(s.noRun.length > 10, `${s.where}: no-run needs a reason`);
    assert.ok(snippets.filter((s) => s.noRun === undefined).length >= 10, 'most snippets run');
  });

  for (const [index, snippet] of snippets.entries()) {
    if (snippet.noRun !== undefined) continue;
    it(`${snippet.where} (${snippet.language})`, { timeout: 4 * SNIPPET_TIMEOUT_MS }, async () => {
      if (snippet.language === 'sh') await runShell(snippet);
      else await runScript(snippet, index);
    });
  }
});
