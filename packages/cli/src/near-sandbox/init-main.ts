/**
 * The small entry of `near-sandbox --home DIR init` (bundle/near-sandbox-init.js, which bin/near-sandbox.js runs
 * when its arguments hold the word `init`): writing a home needs the config layer and the keys, not the node,
 * so this entry's bundle holds only those and starts in a fraction of the full one's time (harnesses run `init`
 * before every `run`). Any other command line is left to the full entry (main.ts).
 */
import { runAsProcess, sandboxHome } from './command-runner.js';
import { initCommand } from './init.js';
import { parseNeardArgs } from './neard-args.js';

/** Runs `argv` when it is an `init` (not `--help` or `--version`) and returns true; else false, having done nothing. */
export async function main(argv: readonly string[] = process.argv.slice(2)): Promise<boolean> {
  const args = parseNeardArgs(argv);
  if (args.words[0] !== 'init' || args.flags.get('version') === true || args.flags.get('help') === true) {
    return false;
  }
  await runAsProcess(() => initCommand(sandboxHome(args), args));
  return true;
}
