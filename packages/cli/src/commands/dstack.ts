/**
 * `shadebox dstack --socket PATH --compose FILE`: a local dstack guest agent (simulated, not a TEE) on a
 * Unix socket, for the agent API's dstack mode (TEE_MODE=dstack, DSTACK_ENDPOINT=PATH). Runs until
 * SIGINT/SIGTERM. docs/tee.md.
 */
import { resolve } from 'node:path';
import { parseFlags, textFlag } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { SIMULATOR_FLAG_OPTIONS, SIMULATOR_FLAGS_HELP, simulatorOptions } from '../dstack/simulator-flags.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { ShutdownSignal } from '../shutdown-signal.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox dstack';

export const DSTACK_HELP = `Usage: shadebox dstack --socket PATH --compose FILE [options] [--json]

Serves a SIMULATED dstack guest agent (dstack 0.5's API: /Info, /GetQuote, /GetKey, /EmitEvent, /Version)
on the Unix socket PATH, for the agent API in dstack mode (TEE_MODE=dstack DSTACK_ENDPOINT=PATH) and for
containers that mount it as /var/run/dstack.sock. It is not a TEE and its quotes are not attestations: they
have the TDX quote v4 layout with no valid signature, a vendor id 'shadebox-sim-tdx', and every answer says
"simulated": true.

Quotes bind the report data asked for (the agent API asks for its account id); tcb_info's event log replays
to the quote's RTMR3 and holds the compose-hash event of FILE (a docker compose YAML, written into an
app-compose.json as Phala Cloud does, or an app-compose.json taken as it is); GetKey's keys are deterministic
per path from the root key.

Options:
  --socket PATH       the Unix socket to serve (a stale socket file is replaced)
  --compose FILE      the app's compose file the simulated TD runs
${SIMULATOR_FLAGS_HELP}  --json              print {"event":"ready","dstackSocket":…,"composeHash":…,"simulated":true}
  -h, --help          show this help

Exit codes: 0 stopped by a signal, 1 the socket is in use or cannot be created, 2 bad command line.
`;

const OPTIONS = {
  socket: { type: 'string' },
  compose: { type: 'string' },
  ...SIMULATOR_FLAG_OPTIONS,
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function dstackCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const flags = parseFlags(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(DSTACK_HELP);
    return EXIT_OK;
  }
  if (flags.socket === undefined) throw new UsageError(COMMAND, 'missing --socket PATH', '--socket');
  if (flags.compose === undefined) throw new UsageError(COMMAND, 'missing --compose FILE', '--compose');
  const socket = resolve(io.cwd, textFlag(COMMAND, '--socket', flags.socket));
  const options = simulatorOptions(COMMAND, resolve(io.cwd, flags.compose), flags);
  const { DstackSimulator, startDstackServer } = await import('../dstack/index.js');
  let sim: InstanceType<typeof DstackSimulator>;
  try {
    sim = new DstackSimulator(options);
  } catch (error) {
    throw new UsageError(COMMAND, (error as Error).message);
  }
  const shutdown = new ShutdownSignal();
  let server: Awaited<ReturnType<typeof startDstackServer>>;
  try {
    server = await startDstackServer(sim, socket);
  } catch (error) {
    shutdown.dispose();
    io.stderr.write(`${COMMAND}: error: ${(error as Error).message}\n`);
    return EXIT_FAILURE;
  }
  const composeHash = sim.compose.composeHash;
  io.stdout.write(
    flags.json
      ? `${JSON.stringify({ event: 'ready', dstackSocket: socket, composeHash, appId: sim.appId.toString('hex'), simulated: true })}\n`
      : [
          `Simulated dstack guest agent (NOT a TEE: its quotes are not attestations) on ${socket}`,
          `  Compose hash  ${composeHash}`,
          `  App id        ${sim.appId.toString('hex')}`,
          `  RTMR3         ${sim.rtmr3.toString('hex')}`,
          `  Use it with   TEE_MODE=dstack DSTACK_ENDPOINT=${socket} shadebox agent`,
          '',
          'Press Ctrl+C to stop.',
          '',
        ].join('\n'),
  );
  await shutdown.received;
  await server.close();
  return EXIT_OK;
}
