/**
 * `shadebox derive PREDECESSOR PATH --chain evm|bitcoin|solana|near`: the key chain signatures derive for
 * (predecessor, path) and its address on the chain, from the signer contract's root key read from the chain
 * (its `public_key({domain_id})` view) and NEAR's derivation (`@shadebox/mpc`), as chainsig.js derives them.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ContractError, type RpcClient, viewFunction } from '@shadebox/near-client';
import { isValidAccountId } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { DEFAULT_STACK_HOME } from '../default-homes.js';
import { EXIT_OK } from '../exit-codes.js';
import { DEFAULT_RPC_URL, rpcTarget, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { formatRows } from '../inspect/text-table.js';
import { accountIdFlag } from '../shared-flags.js';
import { readStackRecord } from '../stack-record.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox derive';

/** The chains `--chain` names, with the signer domain their keys come from. */
export const DERIVE_CHAINS = {
  evm: { domainId: 0, what: '0x address (EIP-55 checksum) of the secp256k1 key' },
  bitcoin: { domainId: 0, what: 'testnet P2WPKH address (tb1…) of the secp256k1 key' },
  solana: { domainId: 1, what: 'base58 of the ed25519 key' },
  near: { domainId: 1, what: 'implicit account (64 hex) of the ed25519 key' },
} as const;
export type DeriveChain = keyof typeof DERIVE_CHAINS;

export const DERIVE_HELP = `Usage: shadebox derive PREDECESSOR PATH --chain evm|bitcoin|solana|near [--mpc-contract-id ID]
                       [--rpc URL] [--home DIR] [--json]

Prints the public key and address that chain signatures derive for PREDECESSOR (the account that calls the
signer's sign: for an agent, the agent contract, e.g. agent.test.near) and PATH (e.g. ethereum-1). The
signer's root key is read from the chain (its public_key view), then derived as NEAR's MPC does, so the result
is what chainsig.js derives for the same contract and what the stack signs with:
  evm      ${DERIVE_CHAINS.evm.what}
  bitcoin  ${DERIVE_CHAINS.bitcoin.what}
  solana   ${DERIVE_CHAINS.solana.what}
  near     ${DERIVE_CHAINS.near.what}
The public key is printed as NEAR writes it (secp256k1:… or ed25519:…, as the signer's derived_public_key).
With --json: {"predecessor":...,"path":...,"chain":...,"publicKey":...,"address":...}.

Options:
  --chain C      evm, bitcoin, solana or near (required)
  --mpc-contract-id ID
                 the signer contract (default: the one of the stack the home names, else signer.test.near)
  --rpc URL      any NEAR JSON-RPC (default: the RPC of the running stack the home names (its stack.json),
                 else the address in the home's config.json, else ${DEFAULT_RPC_URL})
  --home DIR     the stack home (as for 'shadebox up') or node home (default ./.shadebox)
  --json         print {"predecessor","path","chain","publicKey","address"} as JSON, for scripts
  -h, --help     show this help

Exit codes: 0 derived, 1 no answer or no signer contract there, 2 bad command line.
`;

const OPTIONS = {
  ...TARGET_OPTIONS,
  chain: { type: 'string' },
  'mpc-contract-id': { type: 'string' },
} as const;

export async function deriveCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(DERIVE_HELP);
    return EXIT_OK;
  }
  const [predecessor, path, extra] = positionals;
  if (predecessor === undefined || path === undefined) {
    throw new UsageError(COMMAND, 'expected PREDECESSOR and PATH');
  }
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!isValidAccountId(predecessor)) {
    throw new UsageError(COMMAND, `invalid account id '${predecessor}'`, predecessor);
  }
  if (flags.chain === undefined)
    throw new UsageError(COMMAND, '--chain is required (evm, bitcoin, solana or near)', '--chain');
  if (!Object.hasOwn(DERIVE_CHAINS, flags.chain)) {
    throw new UsageError(
      COMMAND,
      `invalid value '${flags.chain}' for --chain: expected evm, bitcoin, solana or near`,
      '--chain',
    );
  }
  const chain = flags.chain as DeriveChain;
  // The stack the home names, while it runs: its RPC and signer (a stack on a free port is found so).
  const stackHome = resolve(io.cwd, flags.home ?? DEFAULT_STACK_HOME);
  const running = runningStack(stackHome);
  const target = rpcTarget(COMMAND, io.cwd, { home: flags.home, rpc: flags.rpc ?? running?.rpcUrl });
  const signerId =
    flags['mpc-contract-id'] === undefined
      ? (running?.mpcContractId ?? homeSignerId(target.nodeHome) ?? 'signer.test.near')
      : accountIdFlag(COMMAND, '--mpc-contract-id', flags['mpc-contract-id']);
  return runInspection(COMMAND, io, target.url, async () => {
    const result = await deriveAddress(target.rpc, signerId, predecessor, path, chain);
    if (flags.json) {
      io.stdout.write(jsonText({ predecessor, path, chain, ...result }));
      return EXIT_OK;
    }
    io.stdout.write(
      formatRows([
        ['address', result.address],
        ['public key', result.publicKey],
        ['derived for', `${predecessor}, path ${JSON.stringify(path)}, signer ${signerId}`],
      ]),
    );
    return EXIT_OK;
  });
}

/** The record of the stack running on `stackHome`, if any (an unreadable record is no stack). */
function runningStack(stackHome: string) {
  try {
    const found = readStackRecord(stackHome);
    return found?.running ? found.record : undefined;
  } catch {
    return undefined;
  }
}

/** The signer a node home's chain signatures were set up with (its mpc_accounts.json), if any. */
function homeSignerId(nodeHome: string): string | undefined {
  const path = join(nodeHome, 'mpc_accounts.json');
  if (!existsSync(path)) return undefined;
  try {
    const id = (JSON.parse(readFileSync(path, 'utf8')) as { signer?: { accountId?: unknown } }).signer
      ?.accountId;
    return typeof id === 'string' ? id : undefined;
  } catch {
    return undefined;
  }
}

/** The derived public key (NAJ) and address of (predecessor, path) on `chain`, under `signerId`'s root key. */
export async function deriveAddress(
  rpc: RpcClient,
  signerId: string,
  predecessor: string,
  path: string,
  chain: DeriveChain,
): Promise<{ publicKey: string; address: string }> {
  const mpc = await import('@shadebox/mpc');
  const { domainId } = DERIVE_CHAINS[chain];
  let root: unknown;
  try {
    root = await viewFunction(rpc, signerId, 'public_key', { domain_id: domainId });
  } catch (error) {
    if (!(error instanceof ContractError)) throw error;
    throw new ContractError(
      `${signerId} gave no root key (${error.message}): is chain signatures running there ('shadebox up', 'shadebox node --mpc')? Name the signer with --mpc-contract-id`,
      false,
      { cause: error },
    );
  }
  if (typeof root !== 'string') {
    throw new ContractError(`${signerId}'s public_key answered ${JSON.stringify(root)}, not a key`, false);
  }
  const publicKey = mpc.derivedPublicKey(root, predecessor, path, domainId);
  const address =
    chain === 'evm'
      ? mpc.evmAddress(publicKey)
      : chain === 'bitcoin'
        ? mpc.bitcoinP2wpkhAddress(publicKey, 'testnet')
        : chain === 'solana'
          ? mpc.solanaAddress(publicKey)
          : mpc.nearImplicitAccountId(publicKey);
  return { publicKey, address };
}
