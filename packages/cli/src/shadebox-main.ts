/**
 * The process entry of `shadebox`: runs the command line of this process and sets its exit code. `main.ts` calls
 * it; the bundle bin/shadebox.js runs (scripts/bundle-cli.mjs) exports it.
 */
import { runCli } from './cli.js';

/** Runs `argv` and exits. An unexpected error prints its stack and exits 1. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  let code: number;
  try {
    code = await runCli(argv);
  } catch (error) {
    process.stderr.write(`shadebox: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    code = 1;
  }
  process.exitCode = code;
  // Exit as soon as the event loop is empty; if a stray handle keeps it alive, exit anyway shortly after.
  setTimeout(() => process.exit(code), 2000).unref();
}
