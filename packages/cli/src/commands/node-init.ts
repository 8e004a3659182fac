/**
 * `shadebox node init`: writes a new node home (genesis.json, config.json, validator_key.json, node_key.json)
 * and refuses to overwrite an existing one unless `--force`, which also deletes the old chain's data.
 */
import { promises as fsPromises } from 'node:fs';
import { basename, isAbsolute, join, relative, resolve, sep } from 'node:path';
import { parseFlags, textFlag } from '../args.js';
import { chainIdFlag, genesisContractsFor, protocolVersionFor } from '../chain-id-flag.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_NODE_HOME } from '../default-homes.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { protocolVersionFlag } from '../protocol-version-flag.js';
import {
  ETH_WALLET_CONTRACT_HELP,
  ethWalletContractFlag,
  MAX_SHARDS,
  numShardsFlag,
} from '../shared-flags.js';

const COMMAND = 'shadebox node init';

export const NODE_INIT_HELP = `Usage: shadebox node init [--home DIR] [--chain-id ID] [--num-shards N] [--mpc] [--force]
                         [--protocol-version N] [--eth-wallet-contract FILE]

Writes a new node home, with nearcore's file names:
  genesis.json        the genesis: chain id, protocol version (86 unless --protocol-version; 87 for
                      --chain-id testnet), account test.near holding most of the supply
  config.json         the node's settings (RPC address 127.0.0.1:3030, block production automine, store path)
  validator_key.json  test.near's key pair, validator and genesis account (mode 0600)
  node_key.json       the node's own key pair (mode 0600)
Start it with 'shadebox node --home DIR'.

Options:
  --home DIR        node home to create (default: ./.shadebox/node, relative to the current directory)
  --chain-id ID     chain id: letters, digits, '.', '_' and '-', at most 64 (default localnet); 'testnet'
                    makes a testnet twin: genesis account testnet (instead of test.near) holding the
                    registrar that creates *.testnet accounts, testnet's protocol version 87 (docs/cli.md,
                    "A testnet twin")
  --num-shards N    shards of the chain, 1 to ${MAX_SHARDS} (default 1)
  --protocol-version N
                    protocol version of the chain, 83 to 87 (default 86, as NEAR mainnet; 87, nearcore
                    2.14's, as NEAR testnet, with --chain-id testnet; docs/configuration.md)
${ETH_WALLET_CONTRACT_HELP}  --mpc             also put chain signatures on the new chain: the signer contract (signer.test.near) and
                    the agent contract (agent.test.near), as 'shadebox node --mpc' does, and the responder's root
                    keys (mpc_keys.json); the node is started for this and stopped again
  --force           overwrite an existing home; its chain data (the store folder) is deleted too
  -h, --help        show this help

Exit codes: 0 written, 1 the home exists (without --force), a node runs on it, or it cannot be written,
2 bad command line.
`;

const OPTIONS = {
  home: { type: 'string' },
  'chain-id': { type: 'string' },
  'num-shards': { type: 'string' },
  'protocol-version': { type: 'string' },
  'eth-wallet-contract': { type: 'string' },
  force: { type: 'boolean' },
  mpc: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

export async function nodeInitCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const flags = parseFlags(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(NODE_INIT_HELP);
    return EXIT_OK;
  }
  const dir = resolve(
    io.cwd,
    flags.home === undefined ? DEFAULT_NODE_HOME : textFlag(COMMAND, '--home', flags.home),
  );
  const chainId = flags['chain-id'] === undefined ? undefined : chainIdFlag(COMMAND, flags['chain-id']);
  const numShards =
    flags['num-shards'] === undefined ? undefined : numShardsFlag(COMMAND, flags['num-shards']);
  const protocolVersion =
    flags['protocol-version'] === undefined
      ? undefined
      : await protocolVersionFlag(COMMAND, flags['protocol-version']);
  const force = flags.force === true;
  const ethWalletContract =
    flags['eth-wallet-contract'] === undefined
      ? undefined
      : ethWalletContractFlag(COMMAND, flags['eth-wallet-contract'], io.cwd);

  const { initHome, loadHome } = await import('@shadebox/node');
  const { assertHomeFree } = await import('@shadebox/node/config');
  try {
    // A running node's home is never rewritten (nor its chain deleted).
    assertHomeFree(dir);
    if (force) await deleteChainData(dir, loadHome);
    const genesisContracts = await genesisContractsFor(chainId);
    const home = await initHome(dir, {
      chainId,
      numShards,
      protocolVersion: protocolVersionFor(chainId, protocolVersion),
      force,
      ethWalletContract,
      genesisContracts,
    });
    const files = [
      home.config.genesis_file,
      'config.json',
      home.config.validator_key_file,
      home.config.node_key_file,
      ...(home.config.shadebox.eth_wallet_contract ? [home.config.shadebox.eth_wallet_contract] : []),
    ];
    io.stdout.write(
      `Initialised node home ${dir}\n` +
        files.map((file) => `  ${join(dir, file)}\n`).join('') +
        `  chain id ${home.genesis.chain_id}, protocol version ${home.genesis.protocol_version}, ` +
        `${home.genesis.shard_layout.V0.num_shards} shard(s), ` +
        `validator ${home.validatorKey.account_id} ${home.validatorKey.public_key}\n` +
        `Start it with: shadebox node --home ${dir}${flags.mpc ? ' --mpc' : ''}\n`,
    );
    if (flags.mpc) {
      try {
        await deployChainSignaturesInto(dir, io);
      } catch (error) {
        io.stderr.write(
          `${COMMAND}: error: chain signatures could not be set up: ${(error as Error).message}\n`,
        );
        return EXIT_FAILURE;
      }
    }
    return EXIT_OK;
  } catch (error) {
    if ((error as Error).name === 'HomeInUseError') {
      const e = error as Error & { advice: string };
      io.stderr.write(`${COMMAND}: error: ${e.message}; ${e.advice}\n`);
    } else if ((error as Error).name === 'HomeExistsError') {
      const existing = (error as Error & { existing?: readonly string[] }).existing ?? [];
      io.stderr.write(
        `${COMMAND}: error: ${dir} already holds a node home (${existing.map((p) => basename(p)).join(', ')}); ` +
          'pass --force to overwrite it and delete its chain\n',
      );
    } else {
      io.stderr.write(`${COMMAND}: error: cannot write ${dir}: ${(error as Error).message}\n`);
    }
    return EXIT_FAILURE;
  }
}

/** `--mpc`: starts the new home's node on a free loopback port, deploys the contracts, stops it. */
async function deployChainSignaturesInto(dir: string, io: CliIo): Promise<void> {
  const { startNode, silentLogger } = await import('@shadebox/node');
  const { startChainSignaturesOn } = await import('../chain-signatures/service.js');
  const node = await startNode({ home: dir, host: '127.0.0.1', rpcPort: 0, log: silentLogger });
  try {
    const cs = await startChainSignaturesOn(node, { log: silentLogger, deployOnly: true });
    io.stdout.write(
      `  chain signatures: ${cs.mpcContractId} (signer), ${cs.agentContractId} (agent), ` +
        `root keys ${cs.publicKeys.secp256k1} ${cs.publicKeys.ed25519}\n`,
    );
  } finally {
    await node.stop();
  }
}

/**
 * With --force, the old chain's store must go with the old genesis, or the next start would find blocks of
 * another chain. Deleted first: a crash in between leaves a home with no chain data, which starts cleanly.
 * Only a store folder inside the home is deleted.
 */
async function deleteChainData(
  dir: string,
  loadHome: typeof import('@shadebox/node').loadHome,
): Promise<void> {
  const storePath = await loadHome(dir).then(
    (home) => home.config.store.path,
    () => 'data',
  );
  const store = resolve(dir, storePath);
  const inside = relative(dir, store);
  if (inside === '' || inside === '..' || inside.startsWith(`..${sep}`) || isAbsolute(inside)) return;
  await fsPromises.rm(store, { recursive: true, force: true });
}
