/**
 * `shadebox node`: runs a NEAR-protocol node in the foreground until SIGINT/SIGTERM.
 * `shadebox node init` is dispatched to ./node-init.ts.
 */
import { resolve } from 'node:path';
import type { Logger, RunningNode, StartNodeOptions } from '@shadebox/node';
import { exclusiveFlags, integerFlag, parseFlags, portFlag, textFlag } from '../args.js';
import {
  CHAIN_ID_HELP,
  chainIdFlag,
  chainIdWarnings,
  genesisContractsFor,
  protocolVersionFor,
} from '../chain-id-flag.js';
import { type AgentContractSource, agentContractFlags } from '../chain-signatures/agent-contract.js';
import {
  SIGNER_HELP,
  SIGNER_OPTIONS,
  type SignerSource,
  signerSourceFromFlags,
} from '../chain-signatures/signer-source.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_NODE_HOME } from '../default-homes.js';
import { EXIT_OK } from '../exit-codes.js';
import { resolveLogLevel } from '../log-level.js';
import {
  PROTOCOL_VERSION_HELP,
  protocolVersionFlag,
  protocolVersionWarnings,
} from '../protocol-version-flag.js';
import { type RunningService, runNode } from '../run-node.js';
import {
  accountIdFlag,
  DEV_ACCOUNT_HELP,
  devAccountsFromFlags,
  ETH_WALLET_CONTRACT_HELP,
  ethWalletContractFlag,
  MAX_SHARDS,
  numShardsFlag,
  productionFlag,
  yieldBlockTimeFlag,
} from '../shared-flags.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox node';

export const NODE_HELP = `Usage: shadebox node [options]
       shadebox node init [options]     write a new node home (see 'shadebox node init --help')

Runs a NEAR-protocol node in the foreground: JSON-RPC 2.0 over HTTP (POST /, and GET /status, /health).
The home directory keeps the chain between runs; a home without genesis.json is first initialised as by
'shadebox node init' (chain id localnet, validator and genesis account test.near).

Options:
  --home DIR        node home (default: ./.shadebox/node, relative to the current directory)
  --memory          keep everything in memory: a fresh chain with new keys, discarded on exit
  --host H          address to listen on (default: the home's config.json rpc.addr, 127.0.0.1)
  --rpc-port P      RPC port, 0 picks a free one (default: the home's config.json rpc.addr, 3030)
  --archival        keep all history, as nearcore's archive = true (default: the home's config.json
                    archive, false: blocks, chunks, transactions and state older than
                    gc_num_epochs_to_keep epochs, default 5, are garbage collected; with --memory too,
                    as near-sandbox: its memory is bounded by those epochs, not by its uptime)
  --gc-num-epochs-to-keep N
                    epochs of history a non-archival node keeps, at least 3 (default: the home's
                    config.json gc_num_epochs_to_keep, 5; an epoch is 500 blocks unless the genesis says
                    otherwise)
  --gc-history-budget-mb N
                    MiB of history (what the kept blocks wrote) a non-archival node keeps inside those
                    epochs before its oldest heights go as if their epoch had ended; never the head's epoch
                    nor the last 100 blocks; 0: whole epochs only (default: 16 with --memory, 0 with a home)
  --archival-port P also serve an archival endpoint on port P (0 picks a free one), beside the regular one:
                    the node keeps its full history; the regular endpoint answers old heights as a regular
                    node does (GARBAGE_COLLECTED_BLOCK, UNKNOWN_BLOCK), the archival one serves them
  --block-time MS   make one block every MS milliseconds
  --yield-block-time MS
                    automine: while a yielded promise (e.g. a chain-signature request) waits for its resume
                    and there is nothing else to do, make one block every MS milliseconds (default 600,
                    NEAR's block time), so it times out after 200 blocks as on NEAR; no blocks otherwise
  --manual          make no blocks on its own: only on request (RPC sandbox_produce_blocks or
                    sandbox_fast_forward, see docs/dev-controls.md)
  --num-shards N    shards of a new chain, 1 to ${MAX_SHARDS} (default 1; an existing chain keeps its own)
${CHAIN_ID_HELP}${PROTOCOL_VERSION_HELP}${DEV_ACCOUNT_HELP}${ETH_WALLET_CONTRACT_HELP}  --mpc             chain signatures: deploy the signer contract (NEAR's interface) as signer.test.near and
                    the agent contract as agent.test.near (owner test.near) when absent, and run the MPC
                    responder that answers sign requests; root keys are kept in the home (mpc_keys.json;
                    a new home's and --memory's derive from --seed). See docs/chain-signatures.md
  --mpc-contract-id ID  with --mpc: the signer contract's account instead of signer.test.near (a home keeps
                    the id it was made with). v1.signer works too, but chainsig.js derives v1.signer's
                    keys offline from NEAR's mainnet root keys, not this node's
  --agent-contract-wasm FILE  with --mpc: deploy this agent contract at agent.test.near instead of the
                    built-in one (e.g. the Shade Agent Framework 2.0 template; see docs/chain-signatures.md)
  --agent-contract-init JSON  its init arguments, a JSON object whose strings may hold $OWNER (test.near),
                    $MPC_CONTRACT_ID and $AGENT_CONTRACT_ID ($$ is a $); default
                    '{"owner_id":"$OWNER","mpc_contract_id":"$MPC_CONTRACT_ID","requires_tee":false}'
${SIGNER_HELP}  --json            print exactly one JSON line on stdout when ready, and nothing else on stdout:
                    {"event":"ready","rpcUrl":...,"explorerUrl":...,"chainId":...,"home":...,"accounts":
                    [{"accountId":"test.near","publicKey":...,"secretKey":...}],"devAccounts":[...]}
                    (home is null with --memory; with --archival-port, "archivalRpcUrl" follows "rpcUrl";
                    with --mpc, "mpcContractId", "agentContractId" and "agentContractOwner" follow
                    "explorerUrl")
  -h, --help        show this help

Without --block-time or --manual, blocks are made as the home's config.json says (shadebox.production),
by default automine: blocks back to back while there is work, until it is final, then idle (one block every
600 ms while a yield waits, see --yield-block-time).
Without --json, a summary is printed on stdout: the RPC and explorer URLs, chain id, home, the test.near
account with the path of its key file (with --memory, its secret key), the dev accounts with their keys and
a curl line and a near-api-js snippet to try; then the live transaction log on stderr.

Logs go to stderr: short lines, or JSON lines (pino) with --json; SHADEBOX_LOG sets the level (default info,
warn with --json).
SIGINT or SIGTERM stops the node cleanly and exits 0; a second signal exits at once.
Exit codes: 0 stopped by a signal, 1 the node could not start (port in use, broken home), 2 bad command line.
`;

const OPTIONS = {
  home: { type: 'string' },
  memory: { type: 'boolean' },
  host: { type: 'string' },
  'rpc-port': { type: 'string' },
  archival: { type: 'boolean' },
  'archival-port': { type: 'string' },
  'gc-num-epochs-to-keep': { type: 'string' },
  'gc-history-budget-mb': { type: 'string' },
  'block-time': { type: 'string' },
  'yield-block-time': { type: 'string' },
  manual: { type: 'boolean' },
  'num-shards': { type: 'string' },
  'chain-id': { type: 'string' },
  'protocol-version': { type: 'string' },
  accounts: { type: 'string' },
  seed: { type: 'string' },
  quiet: { type: 'boolean' },
  'eth-wallet-contract': { type: 'string' },
  mpc: { type: 'boolean' },
  'mpc-contract-id': { type: 'string' },
  'agent-contract-wasm': { type: 'string' },
  'agent-contract-init': { type: 'string' },
  ...SIGNER_OPTIONS,
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function nodeCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  if (args[0] === 'init') {
    const { nodeInitCommand } = await import('./node-init.js');
    return nodeInitCommand(args.slice(1), io);
  }
  const flags = parseFlags(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(NODE_HELP);
    return EXIT_OK;
  }
  exclusiveFlags(COMMAND, { '--home': flags.home !== undefined, '--memory': flags.memory === true });
  exclusiveFlags(COMMAND, {
    '--block-time': flags['block-time'] !== undefined,
    '--manual': flags.manual === true,
    '--yield-block-time': flags['yield-block-time'] !== undefined,
  });

  const start: Omit<StartNodeOptions, 'log'> = {};
  if (flags.memory) start.memory = true;
  else
    start.home = resolve(
      io.cwd,
      flags.home === undefined ? DEFAULT_NODE_HOME : textFlag(COMMAND, '--home', flags.home),
    );
  if (flags.host !== undefined) start.host = textFlag(COMMAND, '--host', flags.host);
  if (flags['rpc-port'] !== undefined) start.rpcPort = portFlag(COMMAND, '--rpc-port', flags['rpc-port']);
  if (flags.archival) start.archive = true;
  if (flags['archival-port'] !== undefined)
    start.archivalRpcPort = portFlag(COMMAND, '--archival-port', flags['archival-port']);
  if (flags['gc-num-epochs-to-keep'] !== undefined) {
    start.gcNumEpochsToKeep = integerFlag(
      COMMAND,
      '--gc-num-epochs-to-keep',
      flags['gc-num-epochs-to-keep'],
      {
        min: 3,
        max: 1_000_000,
        what: 'a number of epochs, at least 3 (nearcore keeps no fewer)',
      },
    );
  }
  if (flags['gc-history-budget-mb'] !== undefined) {
    const mib = integerFlag(COMMAND, '--gc-history-budget-mb', flags['gc-history-budget-mb'], {
      min: 0,
      max: 1_000_000,
      what: 'a whole number of MiB, 0 for whole epochs only',
    });
    start.historyBudgetBytes = mib * 1024 * 1024;
  }
  const production = productionFlag(COMMAND, flags['block-time'], flags.manual);
  if (production !== undefined) start.production = production;
  if (flags['yield-block-time'] !== undefined)
    start.yieldBlockTimeMs = yieldBlockTimeFlag(COMMAND, flags['yield-block-time']);
  const numShards =
    flags['num-shards'] === undefined ? undefined : numShardsFlag(COMMAND, flags['num-shards']);
  if (numShards !== undefined) start.numShards = numShards;
  const chainId = flags['chain-id'] === undefined ? undefined : chainIdFlag(COMMAND, flags['chain-id']);
  if (chainId !== undefined) {
    start.chainId = chainId;
    start.genesisContracts = await genesisContractsFor(chainId);
  }
  const protocolVersion =
    flags['protocol-version'] === undefined
      ? undefined
      : await protocolVersionFlag(COMMAND, flags['protocol-version']);
  // A testnet twin runs testnet's version unless the flag names another.
  const newChainVersion = protocolVersionFor(chainId, protocolVersion);
  if (newChainVersion !== undefined) start.protocolVersion = newChainVersion;
  start.devAccounts = devAccountsFromFlags(COMMAND, flags.accounts, flags.seed);
  if (flags['eth-wallet-contract'] !== undefined)
    start.ethWalletContract = ethWalletContractFlag(COMMAND, flags['eth-wallet-contract'], io.cwd);
  const json = flags.json === true;
  const mpcContractId =
    flags['mpc-contract-id'] === undefined
      ? undefined
      : accountIdFlag(COMMAND, '--mpc-contract-id', flags['mpc-contract-id']);
  if (mpcContractId !== undefined && !flags.mpc) {
    throw new UsageError(COMMAND, '--mpc-contract-id needs --mpc', '--mpc-contract-id');
  }
  if (flags['agent-contract-wasm'] !== undefined && !flags.mpc) {
    throw new UsageError(COMMAND, '--agent-contract-wasm needs --mpc', '--agent-contract-wasm');
  }
  const agentContract = await agentContractFlags(
    COMMAND,
    { wasm: flags['agent-contract-wasm'], init: flags['agent-contract-init'] },
    io.cwd,
  );
  const signerSource = signerSourceFromFlags(COMMAND, flags, io.cwd);
  if (signerSource !== undefined && !flags.mpc) {
    const flag = signerSource.kind === 'file' ? '--signer-wasm' : '--signer-from';
    throw new UsageError(COMMAND, `${flag} needs --mpc`, flag);
  }

  return runNode({
    command: COMMAND,
    io,
    start,
    json,
    txLog: flags.quiet !== true,
    services: flags.mpc
      ? (node, log) =>
          chainSignaturesService(
            node,
            log,
            mpcContractId,
            agentContract,
            signerSource,
            start.devAccounts?.seed,
          )
      : undefined,
    logLevel: resolveLogLevel(COMMAND, json, io.env.SHADEBOX_LOG),
    title: 'Shadebox node ready',
    warnings: (node) => [
      ...(numShards !== undefined && node.chain.numShards !== numShards
        ? [
            `--num-shards ${numShards} ignored: the chain in ${node.home} already exists with ${node.chain.numShards} shard(s)`,
          ]
        : []),
      ...chainIdWarnings(chainId, node),
      ...protocolVersionWarnings(protocolVersion, node),
    ],
  });
}

/** `--mpc`: the chain-signature contracts and the responder, on the node just started. */
async function chainSignaturesService(
  node: RunningNode,
  log: Logger,
  mpcContractId: string | undefined,
  agentContract: AgentContractSource | undefined,
  signerSource: SignerSource | undefined,
  seed: string | undefined,
): Promise<RunningService> {
  const { startChainSignaturesOn } = await import('../chain-signatures/service.js');
  const cs = await startChainSignaturesOn(node, { log, mpcContractId, agentContract, signerSource, seed });
  return {
    ready: {
      mpcContractId: cs.mpcContractId,
      agentContractId: cs.agentContractId,
      agentContractOwner: cs.agentContractOwner,
    },
    summary: [
      ['MPC contract', cs.mpcContractId],
      ['Agent contract', cs.agentContractId],
      ['MPC responder', cs.responderAccountId],
      ['MPC root keys', `${cs.publicKeys.secp256k1}\n${' '.repeat(18)}${cs.publicKeys.ed25519}`],
    ],
    stop: () => cs.stop(),
  };
}
