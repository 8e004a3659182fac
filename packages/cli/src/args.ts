/**
 * Flag parsing on top of `node:util` parseArgs: strict (unknown flags and stray arguments are errors), with
 * every parse error turned into a one-line {@link UsageError} that names the flag, and value parsers for the
 * flags' types (ports, positive integers, non-empty strings).
 */
import { type ParseArgsConfig, parseArgs } from 'node:util';
import { UsageError } from './usage-error.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/** The parsed flags of an option table: strings and booleans (arrays of them for `multiple` flags), each
 * possibly absent. */
export type FlagValues<O extends Options> = {
  -readonly [K in keyof O]?: O[K]['type'] extends 'boolean'
    ? O[K]['multiple'] extends true
      ? boolean[]
      : boolean
    : O[K]['multiple'] extends true
      ? string[]
      : string;
};

/**
 * Parses `args` against `options` for `command` (`shadebox node`). Throws {@link UsageError} for an unknown
 * flag, a missing value, a value given to a boolean flag or a positional argument.
 */
export function parseFlags<const O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
): FlagValues<O> {
  try {
    const { values } = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      strict: true,
      allowPositionals: false,
    });
    return { ...values } as FlagValues<O>;
  } catch (error) {
    throw toUsageError(command, error);
  }
}

/**
 * parseArgs reads `--block-time -5` as a flag missing its value; join such number-looking values to their flag
 * (`--block-time=-5`) so that the error is about the value, which is what the user got wrong.
 */
function joinNegativeValues(args: readonly string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (arg === '--') {
      out.push(...args.slice(i));
      break;
    }
    const name = arg.startsWith('--') ? arg.slice(2) : undefined;
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

function toUsageError(command: string, error: unknown): Error {
  const code = (error as { code?: unknown }).code;
  const message = error instanceof Error ? error.message : String(error);
  const quoted = /'([^']*)'/.exec(message)?.[1] ?? '';
  const flag = /^--?[^\s=<]+/.exec(quoted)?.[0] ?? quoted;
  switch (code) {
    case 'ERR_PARSE_ARGS_UNKNOWN_OPTION':
      return new UsageError(command, `unknown flag ${flag}`, flag);
    case 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE':
      if (message.includes('does not take an argument')) {
        return new UsageError(command, `${flag} does not take a value`, flag);
      }
      return new UsageError(command, `${flag} needs a value`, flag);
    case 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL':
      return new UsageError(command, `unexpected argument '${quoted}'`, quoted);
    default:
      return error instanceof Error ? error : new Error(message);
  }
}

/** A whole decimal number in `[min, max]`, or a {@link UsageError} naming the flag. */
export function integerFlag(
  command: string,
  flag: string,
  value: string,
  range: { min: number; max: number; what: string },
): number {
  const n = /^\d+$/.test(value) ? Number(value) : Number.NaN;
  if (!Number.isSafeInteger(n) || n < range.min || n > range.max) {
    throw new UsageError(command, `invalid value '${value}' for ${flag}: expected ${range.what}`, flag);
  }
  return n;
}

/** A TCP port, 0 (pick a free one) to 65535. */
export function portFlag(command: string, flag: string, value: string): number {
  return integerFlag(command, flag, value, {
    min: 0,
    max: 65535,
    what: 'a port number from 0 to 65535 (0 picks a free port)',
  });
}

/** A non-empty string without surrounding whitespace. */
export function textFlag(command: string, flag: string, value: string): string {
  if (value === '' || value.trim() !== value) {
    throw new UsageError(command, `invalid value '${value}' for ${flag}: expected a non-empty value`, flag);
  }
  return value;
}

/** Throws a {@link UsageError} when more than one of `flags` is set. */
export function exclusiveFlags(command: string, set: Record<string, boolean>): void {
  const given = Object.entries(set)
    .filter(([, isSet]) => isSet)
    .map(([flag]) => flag);
  if (given.length > 1) {
    throw new UsageError(command, `${given.join(' and ')} cannot be used together`, given[1]);
  }
}

/**
 * As {@link parseFlags}, for commands that also take positional arguments (`shadebox view CONTRACT METHOD`):
 * returns the flags and the positionals; the caller checks how many it got.
 */
export function parseFlagsAndArgs<const O extends Options>(
  command: string,
  args: readonly string[],
  options: O,
): { flags: FlagValues<O>; positionals: string[] } {
  try {
    const { values, positionals } = parseArgs({
      args: joinNegativeValues(args, options),
      options,
      strict: true,
      allowPositionals: true,
    });
    return { flags: { ...values } as FlagValues<O>, positionals };
  } catch (error) {
    throw toUsageError(command, error);
  }
}
