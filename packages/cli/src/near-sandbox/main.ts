/**
 * The `near-sandbox` executable: Shadebox's node behind neard's command line, so that the harnesses that
 * start nearcore's sandbox binary (near-workspaces, near-sandbox-js, near-kit, near-api-js) start this one
 * unchanged. See docs/near-sandbox.md.
 *
 *   near-sandbox --version | --help
 *   near-sandbox --home DIR init [--fast] [--chain-id ID] [--account-id ID] [--test-seed SEED] [--num-shards N]
 *                                [--protocol-version N] [--eth-wallet-contract FILE]
 *   near-sandbox --home DIR run [--rpc-addr HOST:PORT] [--network-addr HOST:PORT] [--archive] [neard flags]
 *   near-sandbox --home DIR view-state dump-state [--stream]
 *
 * Start-up is measured (init + run to the first answered GET /status): each command loads only what it uses.
 */
import { EXIT_OK, EXIT_USAGE } from '../exit-codes.js';
import { UsageError } from '../usage-error.js';
import { cliVersion } from '../version.js';
import { runAsProcess, sandboxHome, withUsageErrors } from './command-runner.js';
import { COMMAND, parseNeardArgs } from './neard-args.js';

/** The protocol version of a new chain (the node's PROTOCOL_VERSION, mainnet's; a test keeps them equal).
 * `--version` names it; `init --protocol-version 87` makes a chain of nearcore 2.14's rules. */
export const SANDBOX_PROTOCOL_VERSION = 86;

export const NEAR_SANDBOX_HELP = `Usage: near-sandbox [--home DIR] <COMMAND> [options]

Shadebox's NEAR node with neard's command line: a drop-in for nearcore's sandbox binary.

Commands:
  init          write a node home: config.json, genesis.json, node_key.json, validator_key.json
                  --fast            neard's fast block production (120 ms) and 60-block epochs
                  --chain-id ID     chain id (default: test-chain- and 5 random letters/digits)
                  --account-id ID   the validator and genesis account (default test.near)
                  --test-seed SEED  derive the validator key from SEED, as neard does
                  --num-shards N    shards of the chain (default 1)
                  --protocol-version N  protocol version of the chain, 83 to 87 (default 86, as
                                    NEAR mainnet; 87 as NEAR testnet, nearcore 2.14)
                  --eth-wallet-contract FILE  hold this ETH wallet contract as a global contract from
                                    genesis; a transfer to a 0x… account creates it using that contract
  run           run the node in the foreground until SIGINT/SIGTERM
                  --rpc-addr HOST:PORT      where the JSON-RPC listens (default: config.json rpc.addr)
                  --network-addr HOST:PORT  accepted (a single node has no peers)
                  --archive                 keep all history
                  other neard run flags are accepted
  view-state dump-state [--stream]
                write the head state as a genesis: DIR/output.json, or with --stream
                DIR/output/{genesis,records,config,node_key,validator_key}.json

Options:
  --home DIR      node home (default ~/.near)
  -h, --help      show this help
  -V, --version   print the version
`;

export function versionLine(): string {
  const v = cliVersion();
  return `near-sandbox (release ${v}) (build shadebox-${v}) (rustc none, TypeScript) (protocol ${SANDBOX_PROTOCOL_VERSION}) (db 1)\n`;
}

export function runNearSandbox(argv: readonly string[]): Promise<number> {
  return withUsageErrors(() => dispatch(argv));
}

async function dispatch(argv: readonly string[]): Promise<number> {
  const args = parseNeardArgs(argv);
  const [command, sub] = args.words;
  if (args.flags.get('version') === true) {
    process.stdout.write(versionLine());
    return EXIT_OK;
  }
  if (args.flags.get('help') === true || command === 'help') {
    process.stdout.write(NEAR_SANDBOX_HELP);
    return EXIT_OK;
  }
  const home = sandboxHome(args);
  switch (command) {
    case undefined:
      process.stderr.write(NEAR_SANDBOX_HELP);
      return EXIT_USAGE;
    case 'init':
      return (await import('./init.js')).initCommand(home, args);
    case 'run':
      return (await import('./run.js')).runCommand(home, args);
    case 'view-state':
      if (sub !== 'dump-state') {
        throw new UsageError(
          COMMAND,
          sub === undefined
            ? "view-state needs a subcommand: only 'dump-state' is supported"
            : `view-state ${sub} is not supported: only 'dump-state' is`,
          sub,
        );
      }
      return (await import('./dump-state.js')).dumpStateCommand(home, args);
    default:
      throw new UsageError(COMMAND, `unknown command '${command}'`, command);
  }
}

/** The process entry (bin/near-sandbox.js imports the built copy of this module's sibling entry.ts). */
export function main(argv: readonly string[] = process.argv.slice(2)): Promise<void> {
  return runAsProcess(() => dispatch(argv));
}
