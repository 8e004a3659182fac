/**
 * `shadebox up`: starts the local stack in the foreground: the node, chain signatures (the signer and agent
 * contracts, the MPC responder) and the agent API, funded by and registered through `test.near`.
 */
import { resolve } from 'node:path';
import type { StartNodeOptions } from '@shadebox/node';
import { exclusiveFlags, parseFlags, portFlag, textFlag } from '../args.js';
import { SIGNER_HELP, SIGNER_OPTIONS, signerSourceFromFlags } from '../chain-signatures/signer-source.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_STACK_HOME, nodeHomeOf } from '../default-homes.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { resolveLogLevel } from '../log-level.js';
import { resetStackHome } from '../reset-stack-home.js';
import { runNode } from '../run-node.js';

const COMMAND = 'shadebox up';
const DEFAULT_RPC_PORT = 3030;

const DEFAULT_AGENT_PORT = 3140;

export const UP_HELP = `Usage: shadebox up [--home DIR | --memory] [--reset] [--rpc-port P] [--archival-port P]
                   [--agent-port P] [--signer-wasm FILE | --signer-from URL[#ACCOUNT]] [--json]

Starts the local Shadebox stack in the foreground: a NEAR node, chain signatures (the signer contract
v1.signer, the agent contract agent.test.near and the MPC responder) and the agent API on port 3140, whose
agent account is funded by test.near (CHAIN_ACCOUNT_ID) and registered in the agent contract with the
local codehash (AGENT_CODEHASH from the environment if set).

Options:
  --home DIR     stack home (default: ./.shadebox, relative to the current directory); the node's home is
                 DIR/node, the default home of 'shadebox node' too, so both run the same chain
  --memory       keep everything in memory: a fresh chain with new keys, discarded on exit
  --reset        delete the stack home first and start a new chain (refused if DIR holds anything
                 shadebox did not create)
  --rpc-port P   node RPC port, 0 picks a free one (default ${DEFAULT_RPC_PORT})
  --archival-port P
                 the node's archival endpoint, beside the regular one (default: the RPC port + 1, 3031;
                 a free port when --rpc-port is 0); the ready line names it as "archivalRpcUrl"
                 (see 'shadebox node --help')
  --agent-port P  agent API port, 0 picks a free one (default ${DEFAULT_AGENT_PORT})
${SIGNER_HELP}  --json         print one JSON line on stdout when ready: {"event":"ready","rpcUrl":...,"archivalRpcUrl":...,
                 "agentApiUrl":...,"agentContractId":...,"mpcContractId":...,"chainAccountId":...,"chainId":...,
                 "home":...,"accounts":[...]} (home is the node's home, null with --memory), and once the agent
                 is registered a second one: {"event":"agent-ready","agentAccountId":...}
  -h, --help     show this help

The node listens on 127.0.0.1, makes blocks as its config.json says (automine by default) and keeps its chain
in DIR/node between runs. For more node settings, run 'shadebox node' (see 'shadebox node --help').

Logs go to stderr as JSON lines (pino); SHADEBOX_LOG sets the level (default info, warn with --json).
SIGINT or SIGTERM stops the stack cleanly and exits 0; a second signal exits at once.
Exit codes: 0 stopped by a signal, 1 could not start (port in use, broken home), 2 bad command line.
`;

const OPTIONS = {
  home: { type: 'string' },
  memory: { type: 'boolean' },
  reset: { type: 'boolean' },
  'rpc-port': { type: 'string' },
  'archival-port': { type: 'string' },
  'agent-port': { type: 'string' },
  ...SIGNER_OPTIONS,
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function upCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const flags = parseFlags(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(UP_HELP);
    return EXIT_OK;
  }
  exclusiveFlags(COMMAND, { '--home': flags.home !== undefined, '--memory': flags.memory === true });
  exclusiveFlags(COMMAND, { '--memory': flags.memory === true, '--reset': flags.reset === true });
  const rpcPort =
    flags['rpc-port'] === undefined ? DEFAULT_RPC_PORT : portFlag(COMMAND, '--rpc-port', flags['rpc-port']);
  const agentPort =
    flags['agent-port'] === undefined
      ? DEFAULT_AGENT_PORT
      : portFlag(COMMAND, '--agent-port', flags['agent-port']);
  const signerSource = signerSourceFromFlags(COMMAND, flags, io.cwd);
  const json = flags.json === true;
  const logLevel = resolveLogLevel(COMMAND, json, io.env.SHADEBOX_LOG);

  const start: Omit<StartNodeOptions, 'log'> = { rpcPort };
  // The stack offers both endpoints a NEAR developer uses: {rpc_url} and {archival_rpc_url}.
  start.archivalRpcPort =
    flags['archival-port'] !== undefined
      ? portFlag(COMMAND, '--archival-port', flags['archival-port'])
      : rpcPort === 0
        ? 0
        : rpcPort + 1;
  if (flags.memory) {
    start.memory = true;
  } else {
    const stackHome = resolve(
      io.cwd,
      flags.home === undefined ? DEFAULT_STACK_HOME : textFlag(COMMAND, '--home', flags.home),
    );
    if (flags.reset) {
      try {
        await resetStackHome(stackHome);
      } catch (error) {
        io.stderr.write(`${COMMAND}: error: ${(error as Error).message}\n`);
        return EXIT_FAILURE;
      }
      if (!json) io.stderr.write(`reset: deleted ${stackHome}\n`);
    }
    start.home = nodeHomeOf(stackHome);
  }

  return runNode({
    command: COMMAND,
    io,
    start,
    json,
    logLevel,
    title: 'Shadebox stack ready',
    services: async (node, log) => {
      const { startStackServices } = await import('../stack-services.js');
      return startStackServices(node, log, {
        agentPort,
        codehash: io.env.AGENT_CODEHASH || undefined,
        signerSource,
      });
    },
  });
}
