/**
 * The common end of the inspection commands: what they print when the RPC cannot be reached or refuses, as
 * one line on stderr and exit code 1, with a hint for the usual causes (no node running, a pruned height).
 */
import { ShadeboxError } from '@shadebox/errors';
import { ChainUnavailableError } from '@shadebox/near-client';
import type { CliIo } from '../cli-io.js';
import { EXIT_FAILURE } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';

/**
 * Runs `body`; an error of ours (the RPC's refusal, a contract's failure, a transaction refused, nothing found)
 * becomes one line on stderr and exit code 1. A usage error is left to the CLI (exit 2).
 */
export async function runInspection(
  command: string,
  io: CliIo,
  url: string,
  body: () => Promise<number>,
): Promise<number> {
  try {
    return await body();
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error instanceof ChainUnavailableError) {
      io.stderr.write(
        `${command}: error: no answer from ${url} (${error.message}); is a node running there? Start one with 'shadebox up', or pass --rpc URL\n`,
      );
      return EXIT_FAILURE;
    }
    if (error instanceof ShadeboxError) {
      io.stderr.write(`${command}: error: ${error.message}\n`);
      return EXIT_FAILURE;
    }
    throw error;
  }
}

/** Pretty JSON with its newline; bigints as decimal strings. */
export function jsonText(value: unknown): string {
  return `${JSON.stringify(value, (_k, v) => (typeof v === 'bigint' ? v.toString() : v), 2)}\n`;
}
