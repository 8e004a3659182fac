/**
 * The `shadebox` command line: dispatches to the commands, prints the top-level help and version, and turns a
 * {@link UsageError} into one line on stderr and exit code 2. `runCli(argv)` resolves with the exit code.
 */
import { type CliIo, processIo } from './cli-io.js';
import { EXIT_OK, EXIT_USAGE } from './exit-codes.js';
import { UsageError } from './usage-error.js';
import { cliVersion } from './version.js';

export const MAIN_HELP = `Usage: shadebox <command> [options]

Shadebox: a complete local runtime for NEAR Shade Agents.

Commands:
  up            start the local stack: NEAR node, chain signatures, the agent API (port 3140)
                and a local EVM chain (anvil) the agent signs for
  agent         run the agent API alone, configured by environment (any NEAR JSON-RPC endpoint)
  node          run a NEAR-protocol node with JSON-RPC in the foreground
  node init     write a new node home (genesis.json, config.json, validator_key.json, node_key.json)
  tx HASH       show a transaction: status, actions, gas, its receipt tree and logs
  block [ID]    show a block (latest, or by height or hash) and its chunks' transactions
  account ID    show an account: balance in NEAR, storage, contract, access keys
  view C M [A]  call view method M of contract C with JSON args A and print the result
  call C M [A]  sign and send a call of method M of contract C (as test.near or --as/--key)
  derive P PATH --chain C
                the address and public key chain signatures derive for predecessor P and PATH on
                chain C (evm, bitcoin, solana, near), from the signer's root key on chain
  sign PATH PAYLOAD
                a chain signature of PAYLOAD (hex) through the agent API (r, s, v)
  whitelist ACCOUNT
                whitelist an agent account in a 2.0 agent contract in local mode (as 'shade whitelist')
  dstack --socket PATH --compose FILE
                a local dstack guest agent on a Unix socket: SIMULATED quotes and keys, not a TEE
  help [cmd]    show this help, or a command's

Options:
  -h, --help      show this help
  -v, --version   print the version

Run 'shadebox <command> --help' for a command's options.
`;

type Command = (args: readonly string[], io: CliIo) => Promise<number>;

const COMMANDS: Record<string, () => Promise<Command>> = {
  up: async () => (await import('./commands/up.js')).upCommand,
  node: async () => (await import('./commands/node.js')).nodeCommand,
  agent: async () => (await import('./commands/agent.js')).agentCommand,
  tx: async () => (await import('./commands/tx.js')).txCommand,
  block: async () => (await import('./commands/block.js')).blockCommand,
  account: async () => (await import('./commands/account.js')).accountCommand,
  view: async () => (await import('./commands/view.js')).viewCommand,
  call: async () => (await import('./commands/call.js')).callCommand,
  derive: async () => (await import('./commands/derive.js')).deriveCommand,
  sign: async () => (await import('./commands/sign.js')).signCommand,
  whitelist: async () => (await import('./commands/whitelist.js')).whitelistCommand,
  dstack: async () => (await import('./commands/dstack.js')).dstackCommand,
};

/** Runs `argv` writing to `io` (the process's streams by default); resolves with the exit code. */
export async function runCli(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  try {
    return await dispatch(argv, io);
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`${error.line}\n`);
      return EXIT_USAGE;
    }
    throw error;
  }
}

async function dispatch(argv: readonly string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined) {
    // No command is a usage error: the help goes to stderr and the exit code is 2.
    io.stderr.write(MAIN_HELP);
    return EXIT_USAGE;
  }
  if (first === '-h' || first === '--help') {
    io.stdout.write(MAIN_HELP);
    return EXIT_OK;
  }
  if (first === '-v' || first === '--version') {
    if (rest.length > 0) throw new UsageError('shadebox', `unexpected argument '${rest[0]}'`, rest[0]);
    io.stdout.write(`shadebox ${cliVersion()}\n`);
    return EXIT_OK;
  }
  if (first === 'help') {
    if (rest.length === 0) {
      io.stdout.write(MAIN_HELP);
      return EXIT_OK;
    }
    return dispatch([...rest, '--help'], io);
  }
  const load = Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  if (load === undefined) {
    const what = first.startsWith('-') ? `unknown flag ${first}` : `unknown command '${first}'`;
    throw new UsageError('shadebox', what, first);
  }
  const command = await load();
  return command(rest, io);
}
