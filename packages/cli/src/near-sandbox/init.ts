/**
 * `near-sandbox --home DIR init`: writes a node home as `neard init` does for a local chain (nearcore
 * nearcore/src/config.rs `init_configs`): config.json, genesis.json (with its `records` and `total_supply`),
 * node_key.json and validator_key.json (the validator, `test.near` unless `--account-id`, a full-access key of
 * which is in genesis). `--fast` takes neard's fast block production delays and 60-block epochs; without
 * `--chain-id` the chain is named as neard names it, `test-chain-` and five random letters or digits.
 *
 * The files are the ones harnesses edit between `init` and `run`: they append records to genesis.json (with
 * total_supply adjusted) and merge keys into config.json, which `run` then reads.
 */
import { randomInt } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { protocolVersionFlag } from '../protocol-version-flag.js';
import { ethWalletContractFlag } from '../shared-flags.js';
import { UsageError } from '../usage-error.js';
import {
  EXPECTED_EPOCH_LENGTH,
  FAST_EPOCH_LENGTH,
  FAST_MIN_BLOCK_PRODUCTION_DELAY_MS,
  MIN_BLOCK_PRODUCTION_DELAY_MS,
  neardConsensus,
} from './consensus-config.js';
import { COMMAND, flagValue, type ParsedArgs } from './neard-args.js';

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** nearcore `random_chain_id()`. */
export function randomChainId(): string {
  let suffix = '';
  for (let i = 0; i < 5; i++) suffix += ALPHANUMERIC[randomInt(ALPHANUMERIC.length)];
  return `test-chain-${suffix}`;
}

/**
 * nearcore `SecretKey::from_seed(ED25519, seed)`: the seed's bytes, cut or padded with spaces to 32, are the
 * ed25519 secret seed. Returned as `ed25519:<base58 of seed ‖ public key>` by the caller's KeyPair.
 */
export function seedBytes(seed: string): Uint8Array {
  const bytes = new Uint8Array(32).fill(0x20);
  bytes.set(new TextEncoder().encode(seed).subarray(0, 32));
  return bytes;
}

export async function initCommand(home: string, args: ParsedArgs): Promise<number> {
  const fast = args.flags.get('fast') === true;
  const chainId = flagValue(args, 'chain-id') ?? randomChainId();
  const accountId = flagValue(args, 'account-id') ?? 'test.near';
  const testSeed = flagValue(args, 'test-seed');
  const numShardsText = flagValue(args, 'num-shards');
  let numShards: number | undefined;
  if (numShardsText !== undefined) {
    numShards = Number(numShardsText);
    if (!Number.isSafeInteger(numShards) || numShards < 1) {
      throw new UsageError(COMMAND, `invalid value '${numShardsText}' for --num-shards`, '--num-shards');
    }
  }
  const protocolVersionText = flagValue(args, 'protocol-version');
  const protocolVersion =
    protocolVersionText === undefined ? undefined : await protocolVersionFlag(COMMAND, protocolVersionText);
  const ethWalletText = flagValue(args, 'eth-wallet-contract');
  const ethWalletContract =
    ethWalletText === undefined ? undefined : ethWalletContractFlag(COMMAND, ethWalletText, process.cwd());
  if (args.flags.has('genesis') || args.flags.get('download-genesis') === true) {
    throw new UsageError(
      COMMAND,
      '--genesis and --download-genesis are not supported: this sandbox makes its own local genesis',
      '--genesis',
    );
  }

  // The config layer alone: init needs no chain, store or RPC.
  const { assertHomeFree, HomeExistsError, HomeInUseError, initHome } = await import('@shadebox/node/config');
  const { isValidAccountId, KeyPair, KEY_TYPE_ED25519 } = await import('@shadebox/primitives');
  if (!isValidAccountId(accountId)) {
    throw new UsageError(COMMAND, `invalid value '${accountId}' for --account-id`, '--account-id');
  }
  const validatorSecretKey =
    testSeed === undefined
      ? undefined
      : KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seedBytes(testSeed)).toString();
  const blockTimeMs = fast ? FAST_MIN_BLOCK_PRODUCTION_DELAY_MS : MIN_BLOCK_PRODUCTION_DELAY_MS;
  try {
    // A running node's home is never rewritten (neard's own store lock refuses a second process too).
    assertHomeFree(home);
    const written = await initHome(home, {
      chainId,
      numShards,
      protocolVersion,
      ethWalletContract,
      accountId,
      validatorSecretKey,
      epochLength: fast ? FAST_EPOCH_LENGTH : EXPECTED_EPOCH_LENGTH,
      production: 'interval',
      blockTimeMs,
    });
    // The sections of neard's config.json that harnesses read or merge into, beside our own.
    const configPath = join(home, 'config.json');
    const config = JSON.parse(await readFile(configPath, 'utf8')) as Record<string, unknown>;
    const neard = {
      ...config,
      network: { addr: '0.0.0.0:24567', boot_nodes: '', skip_sync_wait: true },
      consensus: neardConsensus(fast),
      store: { ...(config.store as object), max_open_files: 10_000 },
    };
    await writeFile(configPath, `${JSON.stringify(neard, null, 2)}\n`);
    process.stderr.write(
      `near-sandbox: initialised ${home}: chain id ${written.genesis.chain_id}, ` +
        `validator ${written.validatorKey.account_id} ${written.validatorKey.public_key}\n`,
    );
    return EXIT_OK;
  } catch (error) {
    if (error instanceof HomeInUseError) {
      process.stderr.write(`${COMMAND}: error: ${error.message}; ${error.advice}\n`);
    } else if (error instanceof HomeExistsError) {
      process.stderr.write(
        `${COMMAND}: error: config is already in ${home} (${error.existing.join(', ')}); not overwritten\n`,
      );
    } else {
      process.stderr.write(`${COMMAND}: error: cannot write ${home}: ${(error as Error).message}\n`);
    }
    return EXIT_FAILURE;
  }
}
