/**
 * neard's command line as the sandbox harnesses use it (nearcore neard/src/cli.rs):
 *
 *   near-sandbox [--home DIR] [--verbose TARGET] <init|run|view-state|…> [subcommand flags]
 *
 * Global flags may come before the subcommand; a subcommand's flags after it. Flags are `--name value`,
 * `--name=value` or, for switches, `--name`. Flags this executable has no use for are accepted, as a harness
 * may pass any of neard's: a flag is taken to have a value when it is one of neard's flags that takes one,
 * or when the next word does not start with `--`.
 */
import { UsageError } from '../usage-error.js';

export const COMMAND = 'near-sandbox';

/** neard's switches (flags without a value), across the commands harnesses use. */
const SWITCHES = new Set([
  'help',
  'version',
  'fast',
  'archive',
  'download-genesis',
  'download-config',
  'record-malloc-stats',
  'stream',
  'change-config',
  'include-validators',
]);

export interface ParsedArgs {
  /** Flags by name without the dashes; a switch maps to `true`. Repeated flags keep the last value. */
  flags: Map<string, string | true>;
  /** Words that are not flags, in order (the subcommands). */
  words: string[];
}

export function parseNeardArgs(argv: readonly string[]): ParsedArgs {
  const flags = new Map<string, string | true>();
  const words: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '-h') {
      flags.set('help', true);
      continue;
    }
    if (arg === '-V') {
      flags.set('version', true);
      continue;
    }
    if (!arg.startsWith('--') || arg === '--') {
      words.push(arg);
      continue;
    }
    const eq = arg.indexOf('=');
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    if (eq >= 0) {
      flags.set(name, arg.slice(eq + 1));
      continue;
    }
    const next = argv[i + 1];
    if (SWITCHES.has(name) || next === undefined || next.startsWith('--')) {
      flags.set(name, true);
      continue;
    }
    flags.set(name, next);
    i++;
  }
  return { flags, words };
}

/** The value of a flag that needs one; a usage error when it came as a bare switch. */
export function flagValue(args: ParsedArgs, name: string): string | undefined {
  const v = args.flags.get(name);
  if (v === true) throw new UsageError(COMMAND, `--${name} needs a value`, `--${name}`);
  return v;
}
