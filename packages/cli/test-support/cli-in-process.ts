/**
 * Runs the `shadebox` command line in this process (`runCli` with its output captured), for the unit tests of
 * the parser, the usage errors, the help texts and the exit codes the parser decides. Nothing is spawned: a
 * command line that would start a node must not be run through this.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { runCli } from '../src/cli.js';

export interface CapturedRun {
  code: number;
  stdout: string;
  stderr: string;
}

export interface InProcessOptions {
  /** The working directory the command sees (default: a fresh temporary one). */
  cwd?: string;
  /** Variables added to (or, as undefined, removed from) the environment the command sees. */
  env?: Record<string, string | undefined>;
}

const tempDirs: string[] = [];
after(async () => {
  await Promise.all(tempDirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A fresh temporary directory, deleted when the tests end. */
export async function tempDir(prefix = 'shadebox-cli-'): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  tempDirs.push(dir);
  return dir;
}

/** The environment of a run: this one without the variables that change the CLI's behaviour, plus `extra`. */
function commandEnv(extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.SHADEBOX_LOG;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

/** Runs `args` through `runCli` and returns its exit code and what it wrote on stdout and stderr. */
export async function runCliInProcess(
  args: readonly string[],
  options: InProcessOptions = {},
): Promise<CapturedRun> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env: commandEnv(options.env),
    cwd: options.cwd ?? (await tempDir()),
  });
  return { code, stdout, stderr };
}
