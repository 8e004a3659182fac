/**
 * Every runnable snippet of README.md, docs/*.md and python/README.md (test/support/doc-snippets.ts: fences
 * tagged sh, ts, js, python, unless marked `<!-- no-run: reason -->`) runs as written against a fresh
 * `shadebox up`, in order, from a project folder outside the repository whose node_modules is the repository's
 * (so `npx shadebox` and the imports resolve as in a project that installed Shadebox); python/README.md's
 * shell blocks, written for the repository root, run there, as do blocks marked `<!-- cwd: repository -->`.
 * The stack's home is that folder's ./.shadebox. A snippet marked `<!-- stack: FLAGS -->` runs the same way
 * against `shadebox up FLAGS` in a project folder of its own (one stack per set of flags, started with the
 * plain one and shared). A TypeScript snippet that imports `vitest` is a test file: it is written into a project
 * folder of its own and run with `vitest run` (test-clients' vitest). A snippet that calls `chromium` is skipped
 * where /usr/bin/chromium is missing.
 *
 * What is adapted, and only this: the stack listens on free ports, so the default addresses in the snippets
 * (127.0.0.1:3030, :3031, :3140, :8545) are replaced with the stack's, its config.json names its RPC port, and
 * the variables that name the stack's endpoints (AGENT_API_URL, API_PORT, NEAR_RPC_URL, EVM_RPC_URL) are set. A shell
 * line that starts a server (`shadebox up`, `shadebox node`) runs in the block's own folder on free ports
 * (`--rpc-port 0` unless given, `--agent-port 0` for up) until it is ready, then is stopped with SIGTERM and
 * must exit 0. A shell block succeeds when it exits 0 and prints no JSON-RPC `"error":`.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { CliProcess, REPO_ROOT } from '../packages/cli/test-support/cli-process.js';
import { isVitestSuite, repositorySnippets, type Snippet, startsServer } from './support/doc-snippets.js';

const SNIPPET_TIMEOUT_MS = 90_000;
const BIN = join(REPO_ROOT, 'node_modules', '.bin');
const VITEST = join(REPO_ROOT, 'node_modules', 'vitest', 'vitest.mjs');
const CHROMIUM = '/usr/bin/chromium';

/** A stack the snippets run against, with what points them at it. */
interface Stack {
  /** The project folder it runs in (its home is ./.shadebox there). */
  project: string;
  process: CliProcess;
  env: NodeJS.ProcessEnv;
  replacements: Array<[string, string]>;
}

/** The stacks by their extra flags ('' for the plain `shadebox up`). */
const stacks = new Map<string, Stack>();
const folders: string[] = [];

/** A folder outside the repository that resolves packages as a project with Shadebox installed. */
async function projectFolder(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'shadebox-docs-'));
  folders.push(dir);
  await symlink(join(REPO_ROOT, 'node_modules'), join(dir, 'node_modules'));
  await writeFile(join(dir, 'package.json'), '{"name":"docs-snippets","private":true,"type":"module"}\n');
  return dir;
}

/** `shadebox up FLAGS` on free ports in a project folder of its own, until its agent is registered. */
async function startStack(flags: string[]): Promise<Stack> {
  const project = await projectFolder();
  const process_ = new CliProcess(['up', ...flags, '--rpc-port', '0', '--agent-port', '0', '--json'], {
    cwd: project,
    command: join(BIN, 'shadebox'),
    env: { AGENT_API_URL: undefined },
  });
  const ready = JSON.parse(await process_.firstLine());
  await process_.stdoutIncludes('"agent-ready"');
  // The home's config.json names the port the stack really listens on, as it does the default one.
  const configPath = join(ready.home, 'config.json');
  const config = JSON.parse(await readFile(configPath, 'utf8'));
  config.rpc.addr = new URL(ready.rpcUrl).host;
  await writeFile(configPath, JSON.stringify(config, null, 2));
  const rpc = new URL(ready.rpcUrl).host;
  const archival = new URL(ready.archivalRpcUrl).host;
  const agent = new URL(ready.agentApiUrl).host;
  const replacements: Array<[string, string]> = [
    ['127.0.0.1:3030', rpc],
    ['localhost:3030', rpc],
    ['127.0.0.1:3031', archival],
    ['127.0.0.1:3140', agent],
    ['localhost:3140', agent],
  ];
  // The stack's EVM chain (anvil), when it runs: its default port is 8545.
  if (ready.evm) replacements.push(['127.0.0.1:8545', new URL(ready.evm.rpcUrl).host]);
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: `${BIN}:${process.env.PATH}`,
    AGENT_API_URL: ready.agentApiUrl,
    // What @neardefi/shade-agent-js reads instead (it calls localhost:API_PORT).
    API_PORT: new URL(ready.agentApiUrl).port,
    // What examples/oracle-agent reads.
    NEAR_RPC_URL: ready.rpcUrl,
    ...(ready.evm ? { EVM_RPC_URL: ready.evm.rpcUrl } : {}),
    PYTHONPATH: join(REPO_ROOT, 'python'),
  };
  delete env.NODE_OPTIONS;
  delete env.SHADEBOX_LOG;
  return { project, process: process_, env, replacements };
}

function stackOf(snippet: Snippet): Stack {
  const stack = stacks.get(snippet.stack?.join(' ') ?? '');
  assert.ok(stack, `${snippet.where}: its stack did not start`);
  return stack;
}

function adapt(code: string, stack: Stack): string {
  let out = code;
  for (const [from, to] of stack.replacements) out = out.split(from).join(to);
  return out;
}

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

function run(command: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Run> {
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

/** Where a snippet runs: the repository's root (python/README.md, `cwd: repository`) or its stack's folder. */
function folderOf(snippet: Snippet, stack: Stack): string {
  return snippet.inRepository || snippet.where.startsWith('python/') ? REPO_ROOT : stack.project;
}

async function runShell(snippet: Snippet): Promise<void> {
  const stack = stackOf(snippet);
  const code = adapt(snippet.code, stack);
  const lines = code.split('\n');
  if (!lines.some(startsServer)) {
    const result = await run(
      'bash',
      ['-e', '-o', 'pipefail', '-c', code],
      folderOf(snippet, stack),
      stack.env,
    );
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
    const result = await run('bash', ['-e', '-o', 'pipefail', '-c', line], dir, stack.env);
    assert.equal(
      result.code,
      0,
      `${snippet.where}: ${line}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
    );
  }
}

async function runScript(snippet: Snippet, index: number): Promise<void> {
  const stack = stackOf(snippet);
  const code = adapt(snippet.code, stack);
  const dir = snippet.inRepository ? REPO_ROOT : stack.project;
  const file = join(
    stack.project,
    `snippet-${index}.${snippet.language === 'python' ? 'py' : snippet.language === 'ts' ? 'mts' : 'mjs'}`,
  );
  await writeFile(file, code);
  const result =
    snippet.language === 'python'
      ? await run('python3', [file], dir, stack.env)
      : await run(process.execPath, ['--import', 'tsx', file], dir, stack.env);
  assert.equal(
    result.code,
    0,
    `${snippet.where}\n${code}\nstdout: ${result.stdout}\nstderr: ${result.stderr}`,
  );
}

/**
 * A vitest suite: written as the one test file of a project of its own, whose node_modules holds only
 * `@shadebox/testing` and the packages the suite imports (linked from the repository's; vite keeps its cache in
 * that folder, not the repository's), and run with `vitest run`; at least one test must pass and none fail.
 */
async function runVitest(snippet: Snippet): Promise<void> {
  const stack = stackOf(snippet);
  const dir = await mkdtemp(join(tmpdir(), 'shadebox-docs-vitest-'));
  folders.push(dir);
  await writeFile(join(dir, 'package.json'), '{"name":"docs-vitest","private":true,"type":"module"}\n');
  const imported = [...snippet.code.matchAll(/^import [^;]* from ['"]([^'".][^'"]*)['"];$/gm)].map(
    (m) => m[1]!,
  );
  await mkdir(join(dir, 'node_modules', '@shadebox'), { recursive: true });
  for (const name of new Set(['vitest', '@shadebox/testing', ...imported]))
    await symlink(join(REPO_ROOT, 'node_modules', name), join(dir, 'node_modules', name));
  await writeFile(join(dir, 'my-agent.test.ts'), adapt(snippet.code, stack));
  const env: NodeJS.ProcessEnv = { ...stack.env, CI: '1', NO_COLOR: '1' };
  delete env.FORCE_COLOR;
  const result = await run(process.execPath, [VITEST, 'run', '--reporter=verbose'], dir, env);
  const output = `stdout: ${result.stdout}\nstderr: ${result.stderr}`;
  assert.equal(result.code, 0, `${snippet.where}\n${output}`);
  assert.match(result.stdout, /Tests {2}\d+ passed/, output);
  assert.doesNotMatch(result.stdout, /failed/, output);
}

const snippets = repositorySnippets(REPO_ROOT);
const chromiumMissing = !existsSync(CHROMIUM);
const usesChromium = (snippet: Snippet) => /^chromium /m.test(snippet.code);

before(async () => {
  // The plain stack and one per other set of flags the snippets that run name, started together.
  const flagSets = new Map<string, string[]>([['', []]]);
  for (const s of snippets) if (s.noRun === undefined && s.stack) flagSets.set(s.stack.join(' '), s.stack);
  await Promise.all(
    [...flagSets].map(async ([key, flags]) => {
      stacks.set(key, await startStack(flags));
    }),
  );
});

after(async () => {
  await Promise.all([...stacks.values()].map((stack) => stack.process.stop()));
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
    const skip = usesChromium(snippet) && chromiumMissing ? `${CHROMIUM} is not installed` : false;
    it(`${snippet.where} (${snippet.language})`, { timeout: 4 * SNIPPET_TIMEOUT_MS, skip }, async () => {
      if (snippet.language === 'sh') await runShell(snippet);
      else if (isVitestSuite(snippet)) await runVitest(snippet);
      else await runScript(snippet, index);
    });
  }
});
