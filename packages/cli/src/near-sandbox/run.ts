/**
 * `near-sandbox --home DIR run --rpc-addr HOST:PORT [--network-addr HOST:PORT] [neard run flags]`: runs the
 * home's node in the foreground, as `neard run` does, until SIGINT or SIGTERM.
 *
 * The RPC binds exactly where `--rpc-addr` says (0.0.0.0 included; without it, config.json's rpc.addr).
 * Blocks are made continuously, one every `consensus.min_block_production_delay` of config.json (neard's
 * cadence with a single validator), so a harness waiting for "the next block" while idle gets one. The
 * genesis and config.json are read as they are now, with whatever the harness appended or merged since
 * `init`. neard's other run flags (`--network-addr`, `--boot-nodes`, `--min-peers`, `--produce-empty-blocks`,
 * `--telemetry-url`, …) are accepted; only `--archive` means something here.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { resolveLogLevel } from '../log-level.js';
import { ShutdownSignal } from '../shutdown-signal.js';
import { describeStartError } from '../start-error.js';
import { UsageError } from '../usage-error.js';
import { readBlockProductionDelays } from './consensus-config.js';
import { COMMAND, flagValue, type ParsedArgs } from './neard-args.js';

/** How long a clean stop may take before the process gives up on it. */
const STOP_TIMEOUT_MS = 10_000;

/** `HOST:PORT` or `[v6]:PORT`, as neard's `--rpc-addr`. */
export function parseSocketAddr(flag: string, text: string): { host: string; port: number } {
  const m = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(text);
  const port = m ? Number(m[3]) : Number.NaN;
  if (!m || port > 65_535) {
    throw new UsageError(COMMAND, `invalid value '${text}' for ${flag}: expected HOST:PORT`, flag);
  }
  return { host: m[1] ?? m[2], port };
}

export async function runCommand(home: string, args: ParsedArgs): Promise<number> {
  const rpcAddr = flagValue(args, 'rpc-addr');
  const listen = rpcAddr === undefined ? undefined : parseSocketAddr('--rpc-addr', rpcAddr);
  const networkAddr = flagValue(args, 'network-addr');
  if (networkAddr !== undefined) parseSocketAddr('--network-addr', networkAddr);
  if (!existsSync(join(home, 'config.json'))) {
    process.stderr.write(
      `${COMMAND}: error: ${home} is not initialised (no config.json); run '${COMMAND} --home ${home} init' first\n`,
    );
    return EXIT_FAILURE;
  }

  const shutdown = new ShutdownSignal();
  let delays: Awaited<ReturnType<typeof readBlockProductionDelays>>;
  try {
    delays = await readBlockProductionDelays(home);
  } catch (error) {
    process.stderr.write(`${COMMAND}: error: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  const { createLogger, startNode } = await import('@shadebox/node');
  const log = createLogger('near-sandbox', resolveLogLevel(COMMAND, true));
  let node: Awaited<ReturnType<typeof startNode>>;
  try {
    node = await startNode({
      home,
      ...(listen ? { host: listen.host, rpcPort: listen.port } : {}),
      ...(args.flags.get('archive') === true ? { archive: true } : {}),
      production: { kind: 'interval', blockTimeMs: Math.max(1, delays.minMs) },
      blockProductionDelaysMs: { min: delays.minMs, max: delays.maxMs },
      log,
    });
  } catch (error) {
    process.stderr.write(
      `${COMMAND}: error: ${describeStartError(error, { host: listen?.host ?? '127.0.0.1', port: listen?.port })}\n`,
    );
    return EXIT_FAILURE;
  }
  process.stderr.write(
    `near-sandbox: chain ${node.chainId} at height ${node.chain.head.height}, RPC on ${node.rpcUrl}, ` +
      `a block every ${delays.minMs} ms\n`,
  );

  await shutdown.received;
  const timeout = setTimeout(() => {
    process.stderr.write(`${COMMAND}: error: the node did not stop within ${STOP_TIMEOUT_MS / 1000} s\n`);
    process.exit(EXIT_FAILURE);
  }, STOP_TIMEOUT_MS);
  timeout.unref();
  try {
    await node.stop();
  } finally {
    clearTimeout(timeout);
  }
  return EXIT_OK;
}
