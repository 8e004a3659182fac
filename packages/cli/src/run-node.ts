/**
 * Runs a node in the foreground for `shadebox node` and `shadebox up`: starts it, prints the ready line or the
 * summary, waits for SIGINT/SIGTERM and stops it cleanly. Resolves with the process's exit code.
 */
import { join } from 'node:path';
import type { Colours, Logger, ProductionMode, RunningNode, StartNodeOptions } from '@shadebox/node';
import type { CliIo } from './cli-io.js';
import { EXIT_FAILURE, EXIT_OK } from './exit-codes.js';
import type { LogLevel } from './log-level.js';
import { formatReadyLine, formatSummary } from './print-ready.js';
import { ShutdownSignal } from './shutdown-signal.js';
import { describeStartError } from './start-error.js';

/** How long a clean stop may take before the process gives up on it and exits 1: the agent API lets calls in
 * flight finish for up to 4 s, the node its requests for up to 3 s, each then answers the rest (503). */
const STOP_TIMEOUT_MS = 20_000;

export interface RunNodeOptions {
  /** The command, for messages (`shadebox node`). */
  command: string;
  /** Where the ready line, the summary and the errors go. */
  io: CliIo;
  /** What to start (the logger is made here). */
  start: Omit<StartNodeOptions, 'log'>;
  /** Print the JSON ready line instead of the summary (and logs as JSON lines, no transaction log). */
  json: boolean;
  /** The live transaction log on stderr (text mode only; `--quiet` turns it off). */
  txLog?: boolean;
  /** Blocks are made as `start` says until the services are set up (and the agent registered), then as
   * this says (`shadebox up --manual` / `--block-time`: the stack's own transactions need blocks). */
  productionAfterSetup?: ProductionMode;
  logLevel: LogLevel;
  /** The summary's first line. */
  title: string;
  /** Lines the summary ends with. */
  notes?: readonly string[];
  /** Warnings to print on stderr once the node runs (it is given the running node). */
  warnings?: (node: RunningNode) => string[];
  /** Services started once the node runs and before it reports ready (e.g. chain signatures), stopped
   * before it. Their `ready` fields join the JSON ready line, their `summary` rows the summary. */
  services?: (node: RunningNode, log: Logger) => Promise<RunningService>;
  /** Stop cleanly, as on SIGTERM, when standard input ends (`--stop-with-stdin`): a parent holding the other
   * end of a pipe cannot leave the process behind, even if it is killed with SIGKILL. */
  stopWithStdin?: boolean;
}

export interface RunningService {
  ready: Record<string, unknown>;
  summary: Array<[string, string]>;
  /** Something that happens after ready (the agent registered): printed as a second JSON line, or a line. */
  later?: Promise<{ json: Record<string, unknown>; text: string }>;
  /** More lines for the live transaction log (the EVM chain's signature lines): started with it, stopped
   * before the service. */
  txLog?: (write: (text: string) => void, colours: Colours) => Promise<() => Promise<void>>;
  stop(): Promise<void>;
}

export async function runNode(options: RunNodeOptions): Promise<number> {
  const { command, io } = options;
  // Signals first: a Ctrl+C during start-up stops the node as soon as it is up.
  const shutdown = new ShutdownSignal();
  if (options.stopWithStdin) {
    process.stdin.on('end', () => shutdown.request('SIGTERM')).on('error', () => shutdown.request('SIGTERM'));
    process.stdin.resume();
  }
  const { createLogger, loadHome, startNode } = await import('@shadebox/node');
  // A person at a terminal reads short lines; programs (--json) get pino's JSON lines.
  const log = createLogger('shadebox', options.logLevel, options.json ? 'json' : 'short');

  let node: RunningNode;
  try {
    // The home's lock names this command line to whoever finds the home in use.
    const lockCommand = ['shadebox', ...process.argv.slice(2)].join(' ');
    node = await startNode({ lockCommand, ...options.start, log });
  } catch (error) {
    log.debug({ err: error }, 'start failed');
    await flush(log);
    const listen = { host: options.start.host ?? '127.0.0.1', port: options.start.rpcPort };
    io.stderr.write(`${command}: error: ${describeStartError(error, listen)}\n`);
    return EXIT_FAILURE;
  }

  let service: RunningService | undefined;
  if (options.services && !shutdown.requested) {
    try {
      service = await options.services(node, log);
    } catch (error) {
      log.debug({ err: error }, 'services failed to start');
      io.stderr.write(`${command}: error: ${(error as Error).message}\n`);
      await node.stop().catch(() => undefined);
      await flush(log);
      return EXIT_FAILURE;
    }
  }

  if (!shutdown.requested) {
    for (const warning of options.warnings?.(node) ?? [])
      io.stderr.write(`${command}: warning: ${warning}\n`);
    if (options.json) {
      io.stdout.write(formatReadyLine(node, service?.ready));
    } else {
      let keyFile: string | null = null;
      if (node.home !== null) {
        const home = await loadHome(node.home).catch(() => null);
        keyFile = join(node.home, home?.config.validator_key_file ?? 'validator_key.json');
      }
      io.stdout.write(
        formatSummary({
          title: options.title,
          node,
          keyFile,
          notes: options.notes,
          extraRows: service?.summary,
          production: options.productionAfterSetup,
        }),
      );
    }
  }
  // After the summary: the stack's set-up transactions are not logged, what follows is.
  const stopTxLog =
    options.txLog && !options.json && !shutdown.requested
      ? await startTxLog(node, io, service?.txLog, log)
      : async () => undefined;

  const afterSetup = () => {
    if (options.productionAfterSetup && !shutdown.requested) {
      node.producer.setMode(options.productionAfterSetup);
    }
  };
  if (service?.later === undefined) afterSetup();
  service?.later?.then(
    ({ json, text }) => {
      afterSetup();
      if (shutdown.requested) return;
      io.stdout.write(options.json ? `${JSON.stringify(json)}\n` : `${text}\n`);
    },
    (error: unknown) => {
      afterSetup();
      log.debug({ err: error }, 'service did not become ready');
    },
  );

  const signal = await shutdown.received;
  if (options.stopWithStdin) process.stdin.destroy();
  await stopTxLog();
  if (!options.json) io.stderr.write(`${signal}: stopping the node...\n`);
  const timeout = setTimeout(() => {
    io.stderr.write(`${command}: error: the node did not stop within ${STOP_TIMEOUT_MS / 1000} s\n`);
    process.exit(EXIT_FAILURE);
  }, STOP_TIMEOUT_MS);
  timeout.unref();
  try {
    await service?.stop();
    await node.stop();
  } catch (error) {
    io.stderr.write(`${command}: error: stopping the node failed: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  } finally {
    clearTimeout(timeout);
    await flush(log);
  }
  if (!options.json) io.stderr.write('stopped\n');
  return EXIT_OK;
}

/** The live transaction log of `node` on stderr, coloured for a terminal (NO_COLOR respected), with the
 * service's own lines. */
async function startTxLog(
  node: RunningNode,
  io: CliIo,
  extra: RunningService['txLog'],
  log: Logger,
): Promise<() => Promise<void>> {
  const { attachTxLog, coloursFor } = await import('@shadebox/node');
  const write = (text: string) => io.stderr.write(text);
  const colours = coloursFor(io.stderr as { isTTY?: boolean }, io.env);
  const detach = attachTxLog(node.chain, { write, colours });
  const stopExtra = await extra?.(write, colours).catch((error: unknown) => {
    log.debug({ err: error }, 'transaction log extras failed to start');
    return undefined;
  });
  return async () => {
    detach();
    await stopExtra?.().catch(() => undefined);
  };
}

function flush(log: Logger): Promise<void> {
  return new Promise((resolve) => {
    try {
      log.flush(() => resolve());
    } catch {
      resolve();
    }
  });
}
