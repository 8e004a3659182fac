/**
 * `shadebox up`: starts the local stack in the foreground: the node, chain signatures (the signer and agent
 * contracts, the MPC responder), the agent API, funded by and registered through `test.near`, and the local EVM
 * chain (anvil) where the agent's derived EVM address is funded.
 */
import { resolve } from 'node:path';
import type { StartNodeOptions } from '@shadebox/node';
import { KeyPair } from '@shadebox/primitives';
import { withDefaultAgentImage } from '../agent-image/agent-image-flag.js';
import { exclusiveFlags, parseFlags, portFlag, textFlag } from '../args.js';
import {
  CHAIN_ID_HELP,
  chainIdFlag,
  chainIdWarnings,
  genesisContractsFor,
  protocolVersionFor,
} from '../chain-id-flag.js';
import { agentContractFlags } from '../chain-signatures/agent-contract.js';
import { SIGNER_HELP, SIGNER_OPTIONS, signerSourceFromFlags } from '../chain-signatures/signer-source.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_STACK_HOME, nodeHomeOf } from '../default-homes.js';
import { TEE_HELP, TEE_OPTIONS, teePlanFromFlags } from '../dstack/stack-tee.js';
import { EVM_HELP, EVM_OPTIONS, EvmUnavailableError, evmPlanFromFlags } from '../evm/evm-flags.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { resolveLogLevel } from '../log-level.js';
import {
  PROTOCOL_VERSION_HELP,
  protocolVersionFlag,
  protocolVersionWarnings,
} from '../protocol-version-flag.js';
import { resetStackHome } from '../reset-stack-home.js';
import { runNode } from '../run-node.js';
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

const COMMAND = 'shadebox up';
const DEFAULT_RPC_PORT = 3030;

export const UP_HELP = `Usage: shadebox up [--home DIR | --memory] [--reset] [--host H] [--rpc-port P] [--archival]
                   [--archival-port P] [--agent-port P] [--mpc-contract-id ID]
                   [--block-time MS | --manual | --yield-block-time MS] [--num-shards N] [--chain-id ID]
                   [--protocol-version N]
                   [--accounts N] [--seed TEXT] [--quiet] [--eth-wallet-contract FILE]
                   [--signer-wasm FILE | --signer-from URL[#ACCOUNT]]
                   [--agent-contract v1|v2 [--whitelist-all] | --agent-contract-wasm FILE
                   [--agent-contract-init JSON]] [--agent-key-file FILE]
                   [--tee local|dstack [--dstack-compose FILE] [--dstack-socket PATH]] [--agent-image [REF]]
                   [--evm | --no-evm] [--evm-port P] [--evm-chain-id N] [--evm-fund-path PATH]... [--json]
                   [--stop-with-stdin]

Starts the local Shadebox stack in the foreground: a NEAR node, chain signatures (the signer contract
signer.test.near, the agent contract agent.test.near and the MPC responder) and the agent API on port 3140,
whose agent account is funded by test.near (CHAIN_ACCOUNT_ID) and registered in the agent contract with the
local codehash (AGENT_CODEHASH from the environment if set), or in the flow of --agent-contract-wasm's
contract. The agent API's other variables are honoured: AGENT_FUNDING_AMOUNT (0.3), AGENT_KEY_POOL_SIZE (8),
AGENT_API_PORT (3140, --agent-port wins), AGENT_API_HOST (127.0.0.1), AGENT_API_CORS_ORIGIN,
AGENT_API_ALLOW_CONTRACTS, AGENT_API_RETRY_MAX_MS, AGENT_KEY_FILE, NEAR_RPC_TIMEOUT_MS (docs/agent-api.md);
an invalid one stops up before it starts anything (exit 1). It prints the agent's EVM, Bitcoin (testnet) and Solana addresses: the keys derived
for the agent contract under the paths ethereum-1, bitcoin-1 and solana-1, the addresses chainsig.js derives
with this stack's contract id and RPC. Where anvil is installed (npm install brings it), it also runs the
local EVM chain those signatures are for, in memory, where the agent's EVM address holds 100 ETH.
With --chain-id testnet the chain is a testnet twin: the accounts are testnet, signer.testnet, agent.testnet
and dev-N.testnet instead (docs/cli.md, "A testnet twin").

Options:
  --home DIR     stack home (default: ./.shadebox, relative to the current directory); the node's home is
                 DIR/node, the default home of 'shadebox node' too, so both run the same chain
  --memory       keep everything in memory: a fresh chain, discarded on exit (its keys derive from --seed)
  --reset        delete the stack home first and start a new chain (refused if DIR holds anything
                 shadebox did not create, or while a node runs on it)
  --host H       address the node and the agent API listen on (default 127.0.0.1; the agent API's
                 AGENT_API_HOST otherwise)
  --rpc-port P   node RPC port, 0 picks a free one (default ${DEFAULT_RPC_PORT})
  --archival     keep all history, as nearcore's archive = true (see 'shadebox node --help')
  --archival-port P
                 the node's archival endpoint, beside the regular one (default: the RPC port + 1, 3031;
                 a free port when --rpc-port is 0); the ready line names it as "archivalRpcUrl"
                 (see 'shadebox node --help')
  --agent-port P  agent API port, 0 picks a free one (default AGENT_API_PORT, else 3140)
  --agent-contract v1|v2
                 the built-in agent contract to deploy: v1 (the default: codehash approval, the
                 original shade-agent-js interface) or v2 (the Shade Agent Framework 2.0 interface of
                 the shade-contract-template: new(requires_tee false, 7 days, owned by the genesis
                 account, the stack's signer), the all-zero mock measurements and the default PPID
                 approved as 'shade deploy' does in local mode, the agent API whitelisted and
                 registered in it; whitelist ShadeClient agents with 'shadebox whitelist ACCOUNT' or
                 --whitelist-all; with --tee dstack: requires_tee true, the simulated TD's
                 measurements and PPID approved, the agent registered with its attestation)
  --whitelist-all
                 with a 2.0 contract (--agent-contract v2 or a released template build): whitelist
                 every implicit account that asks, i.e. signs or receives a transaction (ShadeClient's
                 fund() and register()), for development (docs/chain-signatures.md)
  --agent-contract-wasm FILE
                 deploy this agent contract at agent.test.near instead of the built-in one; the agent
                 API registers in whichever flow it has: codehash approval (the built-in contract) or
                 the owner's whitelist_agent then register_agent (the Shade Agent Framework 2.0
                 template)
  --agent-contract-init JSON
                 its init arguments: a JSON object whose strings may hold $OWNER (test.near),
                 $MPC_CONTRACT_ID and $AGENT_CONTRACT_ID ($$ is a $); default
                 '{"owner_id":"$OWNER","mpc_contract_id":"$MPC_CONTRACT_ID","requires_tee":false}'
  --agent-key-file FILE
                 keep the agent's key in FILE (AGENT_KEY_FILE, created 0600 at the first start), so the
                 agent account stays the same across restarts; for development (default: a new agent
                 account every start, as in a TEE)
  --agent-image [REF]
                 run the agent API from its container image REF (default shadebox-agent-api:latest,
                 built by npm run image) with podman (docker where podman is not installed and its
                 daemon answers) on the host's network, instead of in this process; its digest
                 (sha256:..., computed as npm run image does) is approved and registered as the
                 agent's codehash, and named in the summary and the ready line (agentImage); not
                 with --agent-key-file (docs/deploy.md)
${TEE_HELP}  --mpc-contract-id ID
                 the signer contract's account instead of signer.test.near (a home keeps the id it was made
                 with). v1.signer works too, but chainsig.js derives v1.signer's keys offline from NEAR's
                 mainnet root keys, not this stack's (see docs/chain-signatures.md)
  --block-time MS
                 make one block every MS milliseconds, once the stack is set up (its contracts deployed, the
                 agent registered: that runs in automine)
  --manual       make blocks only on request (sandbox_produce_blocks, sandbox_fast_forward, see
                 docs/dev-controls.md), once the stack is set up as with --block-time
  --num-shards N shards of a new chain, 1 to ${MAX_SHARDS} (default 1; an existing chain keeps its own)
${CHAIN_ID_HELP}${PROTOCOL_VERSION_HELP}  --yield-block-time MS
                 while a sign request (a yielded promise) waits for the MPC's answer and there is nothing
                 else to do, make one block every MS milliseconds (default 600, NEAR's block time): an
                 unanswered request times out after 200 blocks, as on NEAR (see 'shadebox node --help')
${DEV_ACCOUNT_HELP}${ETH_WALLET_CONTRACT_HELP}${SIGNER_HELP}${EVM_HELP}  --json         print one JSON line on stdout when ready: {"event":"ready","rpcUrl":...,"archivalRpcUrl":...,
                 "explorerUrl":...,"agentApiUrl":...,"agentContractId":...,"agentContractOwner":...,
                 "mpcContractId":...,"chainAccountId":...,"agentAddresses":{"predecessor":...,"evm":{"path":...,
                 "address":...},"bitcoin":{...},"solana":{...}},"evm":{"rpcUrl":...,"chainId":...,"funded":
                 [{"path":...,"address":...}, ...]},"chainId":...,"home":...,"accounts":[...],"devAccounts":
                 [{"accountId":...,"publicKey":...,"secretKey":...}, ...]} (home is the node's home, null
                 with --memory; evm is null when the EVM chain is not started; agentContractOwner is the
                 genesis account, listed with its key in accounts, unless --agent-contract-init names
                 another owner_id; with --tee dstack a "tee":{"mode":"dstack","simulated":true,"socket":...,
                 "composeFile":...,"composeHash":...,"apiImage":...,"appImage":...}), and once the agent
                 is registered a second one:
                 {"event":"agent-ready","agentAccountId":...}
  --stop-with-stdin
                 stop cleanly, as on SIGTERM, when standard input ends: a program that starts up with a
                 pipe as its stdin cannot leave it running, even when killed (@shadebox/testing uses it)
  -h, --help     show this help

Without --json, one summary is printed on stdout: the URLs (RPC, archival RPC, agent API, explorer), the
chain, the contracts, the agent's addresses, the EVM chain (or why it is not started), the dev accounts with
their keys and a curl line and a near-api-js snippet to try; then the agent account once registered. The live
transaction log (one entry per transaction and receipt, chain-signature requests and answers included) and the
logs go to stderr.

The node makes blocks as its config.json says (automine by default; see --block-time, --manual) and keeps its
chain in DIR/node between runs. For more node settings, run 'shadebox node' (see 'shadebox node --help').

Logs go to stderr: short lines, or JSON lines (pino) with --json; SHADEBOX_LOG sets the level (default info,
warn with --json).
SIGINT or SIGTERM stops the stack cleanly and exits 0; a second signal exits at once. anvil stops with the
stack, also when up is killed.
Exit codes: 0 stopped by a signal, 1 could not start (port in use, broken home, --evm without anvil), 2 bad
command line.
`;

const OPTIONS = {
  home: { type: 'string' },
  memory: { type: 'boolean' },
  reset: { type: 'boolean' },
  host: { type: 'string' },
  'rpc-port': { type: 'string' },
  archival: { type: 'boolean' },
  'block-time': { type: 'string' },
  manual: { type: 'boolean' },
  'num-shards': { type: 'string' },
  'chain-id': { type: 'string' },
  'protocol-version': { type: 'string' },
  accounts: { type: 'string' },
  seed: { type: 'string' },
  quiet: { type: 'boolean' },
  'archival-port': { type: 'string' },
  'agent-port': { type: 'string' },
  'agent-contract': { type: 'string' },
  'whitelist-all': { type: 'boolean' },
  'agent-contract-wasm': { type: 'string' },
  'agent-contract-init': { type: 'string' },
  'agent-key-file': { type: 'string' },
  'agent-image': { type: 'string' },
  'mpc-contract-id': { type: 'string' },
  'yield-block-time': { type: 'string' },
  'eth-wallet-contract': { type: 'string' },
  ...TEE_OPTIONS,
  ...SIGNER_OPTIONS,
  ...EVM_OPTIONS,
  json: { type: 'boolean' },
  'stop-with-stdin': { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function upCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const flags = parseFlags(COMMAND, withDefaultAgentImage(args), OPTIONS);
  if (flags.help) {
    io.stdout.write(UP_HELP);
    return EXIT_OK;
  }
  exclusiveFlags(COMMAND, { '--home': flags.home !== undefined, '--memory': flags.memory === true });
  exclusiveFlags(COMMAND, { '--memory': flags.memory === true, '--reset': flags.reset === true });
  exclusiveFlags(COMMAND, {
    '--block-time': flags['block-time'] !== undefined,
    '--manual': flags.manual === true,
    '--yield-block-time': flags['yield-block-time'] !== undefined,
  });
  const host = flags.host === undefined ? undefined : textFlag(COMMAND, '--host', flags.host);
  const rpcPort =
    flags['rpc-port'] === undefined ? DEFAULT_RPC_PORT : portFlag(COMMAND, '--rpc-port', flags['rpc-port']);
  const portFromFlag =
    flags['agent-port'] === undefined ? undefined : portFlag(COMMAND, '--agent-port', flags['agent-port']);
  // The key file is named relative to where up runs (the flag, or AGENT_KEY_FILE).
  const keyFileText = io.env.AGENT_KEY_FILE?.trim();
  const agentKeyFile =
    flags['agent-key-file'] !== undefined
      ? resolve(io.cwd, textFlag(COMMAND, '--agent-key-file', flags['agent-key-file']))
      : keyFileText
        ? resolve(io.cwd, keyFileText)
        : undefined;
  const agentImage =
    flags['agent-image'] === undefined ? undefined : textFlag(COMMAND, '--agent-image', flags['agent-image']);
  if (agentImage !== undefined && agentKeyFile !== undefined) {
    throw new UsageError(
      COMMAND,
      '--agent-image runs the agent API in a container, which does not see the key file: drop --agent-key-file (or AGENT_KEY_FILE)',
      '--agent-image',
    );
  }
  // The agent variables are checked before anything starts (a typo must not cost a node start).
  const { ConfigError, loadAgentApiConfig } = await import('@shadebox/agent-api');
  const { stackAgentConfig } = await import('../stack-services.js');
  let agentPort: number;
  try {
    agentPort = stackAgentConfig(loadAgentApiConfig, io.env, {
      accountId: 'test.near',
      // A well-formed key for the check: the node (and its real key) does not exist yet.
      secretKey: KeyPair.fromRandom('ed25519').toString(),
      agentContractId: 'agent.test.near',
      rpcUrl: 'http://127.0.0.1:3030',
      agentPort: portFromFlag,
      host,
      agentKeyFile,
    }).port;
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    io.stderr.write(`${COMMAND}: error: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  const agentContract = await agentContractFlags(
    COMMAND,
    {
      wasm: flags['agent-contract-wasm'],
      init: flags['agent-contract-init'],
      builtIn: flags['agent-contract'],
    },
    io.cwd,
  );
  if (flags['whitelist-all'] && agentContract?.flow !== 'whitelist-local') {
    throw new UsageError(
      COMMAND,
      '--whitelist-all needs a 2.0 agent contract in local mode: --agent-contract v2, or an --agent-contract-wasm with whitelist_agent_for_local',
      '--whitelist-all',
    );
  }
  const tee = teePlanFromFlags(COMMAND, flags, io.cwd, {
    agentKeyFile,
    agentImage,
    flow: agentContract?.flow,
    builtInV2: flags['agent-contract'] === 'v2',
  });
  if (tee.mode === 'dstack' && agentContract?.flow === 'whitelist-local') {
    // The built-in 2.0 contract in TEE mode: agents register with the local dstack's attestation.
    if (flags['whitelist-all'])
      throw new UsageError(
        COMMAND,
        '--whitelist-all needs a 2.0 agent contract in local mode: with --tee dstack it requires a TEE, and agents register with their attestation',
        '--whitelist-all',
      );
    agentContract.initArgs = { ...agentContract.initArgs, requires_tee: true };
  }
  const mpcContractId =
    flags['mpc-contract-id'] === undefined
      ? undefined
      : accountIdFlag(COMMAND, '--mpc-contract-id', flags['mpc-contract-id']);
  const signerSource = signerSourceFromFlags(COMMAND, flags, io.cwd);
  let evm: ReturnType<typeof evmPlanFromFlags>;
  try {
    evm = evmPlanFromFlags(COMMAND, flags, { rpcPort, env: io.env });
  } catch (error) {
    if (!(error instanceof EvmUnavailableError)) throw error;
    io.stderr.write(`${COMMAND}: error: ${error.message}\n`);
    return EXIT_FAILURE;
  }
  const json = flags.json === true;
  const logLevel = resolveLogLevel(COMMAND, json, io.env.SHADEBOX_LOG);

  const start: Omit<StartNodeOptions, 'log'> = { rpcPort };
  if (host !== undefined) start.host = host;
  if (flags.archival) start.archive = true;
  // The stack's own transactions (deploys, the agent's registration) need blocks: they run in automine.
  const production = productionFlag(COMMAND, flags['block-time'], flags.manual);
  if (production !== undefined) start.production = { kind: 'automine' };
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
  if (flags['yield-block-time'] !== undefined)
    start.yieldBlockTimeMs = yieldBlockTimeFlag(COMMAND, flags['yield-block-time']);
  if (flags['eth-wallet-contract'] !== undefined)
    start.ethWalletContract = ethWalletContractFlag(COMMAND, flags['eth-wallet-contract'], io.cwd);
  // The stack offers both endpoints a NEAR developer uses: {rpc_url} and {archival_rpc_url}.
  start.archivalRpcPort =
    flags['archival-port'] !== undefined
      ? portFlag(COMMAND, '--archival-port', flags['archival-port'])
      : rpcPort === 0
        ? 0
        : rpcPort + 1;
  let stackHome: string | undefined;
  if (flags.memory) {
    start.memory = true;
  } else {
    stackHome = resolve(
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
    txLog: flags.quiet !== true,
    productionAfterSetup: production,
    stopWithStdin: flags['stop-with-stdin'] === true,
    title: 'Shadebox stack ready',
    warnings: (node) => [
      ...(numShards !== undefined && node.chain.numShards !== numShards
        ? [
            `--num-shards ${numShards} ignored: the chain in ${node.home} already exists with ${node.chain.numShards} shard(s)`,
          ]
        : []),
      ...chainIdWarnings(chainId, node),
      ...protocolVersionWarnings(protocolVersion, node),
    ],
    services: async (node, log) => {
      const { startStackServices } = await import('../stack-services.js');
      const service = await startStackServices(node, log, {
        agentPort,
        host,
        env: io.env,
        agentContract,
        mpcContractId,
        signerSource,
        evm,
        seed: start.devAccounts?.seed,
        agentKeyFile,
        whitelistAll: flags['whitelist-all'] === true,
        agentImage,
        tee,
      });
      // The home names the running stack's endpoints (stack.json) for the commands run beside it.
      if (stackHome === undefined) return service;
      const { recordStack } = await import('../stack-record.js');
      return recordStack(stackHome, node, service);
    },
  });
}
