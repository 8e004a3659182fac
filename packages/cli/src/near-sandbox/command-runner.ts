/**
 * What every entry of the `near-sandbox` executable shares (main.ts, and init-main.ts, the small entry of
 * `init`): the home a command works in, usage errors printed as one line, and the process's exit code.
 * It imports nothing heavy, so an entry that uses it stays small.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { EXIT_FAILURE, EXIT_USAGE } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { COMMAND, flagValue, type ParsedArgs } from './neard-args.js';

/** `--home DIR`, else neard's default `~/.near`, as an absolute path. */
export function sandboxHome(args: ParsedArgs): string {
  return resolve(flagValue(args, 'home') ?? join(homedir(), '.near'));
}

/** Runs a command; a usage error prints its line and gives the usage exit code. */
export async function withUsageErrors(run: () => Promise<number>): Promise<number> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof UsageError) {
      process.stderr.write(`${error.line}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

/**
 * Runs a command as the process's work and sets the exit code; an unexpected error prints its stack and exits
 * 1. The process exits when its event loop is empty, or 2 s later if a stray handle keeps it alive.
 */
export async function runAsProcess(run: () => Promise<number>): Promise<void> {
  let code: number;
  try {
    code = await withUsageErrors(run);
  } catch (error) {
    process.stderr.write(`${COMMAND}: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    code = EXIT_FAILURE;
  }
  process.exitCode = code;
  setTimeout(() => process.exit(code), 2000).unref();
}
