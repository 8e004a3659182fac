/**
 * `shadebox whitelist ACCOUNT`: what the Shade Agent Framework's `shade whitelist` does, against any NEAR RPC —
 * the agent contract's owner calls `whitelist_agent_for_local({account_id})` (or, with `--remove`,
 * `remove_agent_from_whitelist_for_local`). The contract is `--contract`, the running stack's (its stack.json in
 * the home), the home's agent account (mpc_accounts.json), or `agent.<the chain's genesis account>` as a new
 * stack names it (`agent.testnet` on a testnet twin, from `status.chain_id`); the owner is the one
 * `get_contract_info` names, signing with its key from the home, or `--as` and `--key`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { KeyPool, outcomeResult, type RpcClient, status, viewFunction } from '@shadebox/near-client';
import { isValidAccountId, TGAS } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { signingKey } from '../inspect/signing-key.js';
import { readStackRecord } from '../stack-record.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox whitelist';
const GAS = 30n * TGAS;

export const WHITELIST_HELP = `Usage: shadebox whitelist ACCOUNT [--remove] [--contract ID] [--as OWNER] [--key SECRET]
                          [--rpc URL] [--home DIR] [--json]

Whitelists ACCOUNT (the agent's account, a 64-hex implicit account for ShadeClient) in a Shade Agent
Framework 2.0 agent contract in local mode, as 'shade whitelist' does: the contract's owner calls
whitelist_agent_for_local({"account_id": ACCOUNT}). The agent can then register (register_agent). Whitelisting
an account twice succeeds. Works with 'shadebox up --agent-contract v2' and any build of the template.

Options:
  --remove       remove ACCOUNT from the whitelist instead (remove_agent_from_whitelist_for_local); a
                 registered agent that is no longer whitelisted is invalid and cannot sign
  --contract ID  the agent contract (default: the running stack's, from stack.json in the home, else the
                 home's agent account in mpc_accounts.json, else the one a new stack deploys on the
                 chain --rpc answers for: agent.testnet on a testnet twin, agent.test.near elsewhere)
  --as OWNER     the account that signs (default: the owner_id the contract's get_contract_info names)
  --key SECRET   its secret key (ed25519:…). Default: its key from the home, as 'shadebox call' finds it
                 (the genesis account test.near, which 'shadebox up' makes the owner, in validator_key.json)
${TARGET_HELP}
Exit codes: 0 whitelisted (or removed), 1 the contract refused (its message is printed: not the owner, a
contract with requires_tee, an account not in the whitelist) or no answer, 2 bad command line.
`;

const OPTIONS = {
  remove: { type: 'boolean' },
  contract: { type: 'string' },
  as: { type: 'string' },
  key: { type: 'string' },
  ...TARGET_OPTIONS,
} as const;

/** The agent contract a home names: the running stack's record, else the chain-signature accounts file. */
function contractOfHome(nodeHome: string): string | undefined {
  const stackHome = basename(nodeHome) === 'node' ? dirname(nodeHome) : nodeHome;
  try {
    const found = readStackRecord(stackHome);
    if (found?.record.agentContractId) return found.record.agentContractId;
  } catch {
    // Not a stack record: look further.
  }
  for (const dir of [nodeHome, stackHome]) {
    const file = join(dir, 'mpc_accounts.json');
    if (!existsSync(file)) continue;
    try {
      const saved = JSON.parse(readFileSync(file, 'utf8')) as { agent?: { accountId?: unknown } };
      if (typeof saved.agent?.accountId === 'string') return saved.agent.accountId;
    } catch {
      // Unreadable: fall back to the default.
    }
  }
  return undefined;
}

/**
 * The agent contract a new stack deploys on the chain `rpc` serves: `agent.` + the genesis account the chain id
 * gives (`testnet` on a testnet twin, `test.near` on every other chain), as `shadebox up` names it.
 */
async function contractOfChain(rpc: RpcClient): Promise<string> {
  const { genesisAccountIdFor } = await import('@shadebox/node/config');
  return `agent.${genesisAccountIdFor((await status(rpc)).chain_id)}`;
}

export async function whitelistCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(WHITELIST_HELP);
    return EXIT_OK;
  }
  const [accountId, extra] = positionals;
  if (accountId === undefined)
    throw new UsageError(COMMAND, 'expected ACCOUNT, the agent account to whitelist');
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!isValidAccountId(accountId)) {
    throw new UsageError(COMMAND, `invalid account id '${accountId}'`, accountId);
  }
  for (const flag of ['contract', 'as'] as const) {
    const value = flags[flag];
    if (value !== undefined && !isValidAccountId(value)) {
      throw new UsageError(
        COMMAND,
        `invalid value '${value}' for --${flag}: not a valid NEAR account id`,
        `--${flag}`,
      );
    }
  }
  const { rpc, url, nodeHome } = rpcTarget(COMMAND, io.cwd, flags);
  const contractOfFiles = flags.contract ?? contractOfHome(nodeHome);
  const method = flags.remove ? 'remove_agent_from_whitelist_for_local' : 'whitelist_agent_for_local';
  return runInspection(COMMAND, io, url, async () => {
    const contractId = contractOfFiles ?? (await contractOfChain(rpc));
    let ownerId = flags.as;
    if (ownerId === undefined) {
      const info = (await viewFunction(rpc, contractId, 'get_contract_info', {})) as { owner_id?: unknown };
      if (typeof info?.owner_id !== 'string') {
        throw new UsageError(
          COMMAND,
          `${contractId}'s get_contract_info names no owner_id: pass --as OWNER (and --key)`,
          '--as',
        );
      }
      ownerId = info.owner_id;
    }
    const signer = signingKey(COMMAND, nodeHome, { as: ownerId, key: flags.key });
    const pool = new KeyPool(rpc, signer.accountId, [signer.keyPair]);
    const outcome = await pool.send(contractId, [
      {
        type: 'FunctionCall',
        methodName: method,
        args: new TextEncoder().encode(JSON.stringify({ account_id: accountId })),
        gas: GAS,
        deposit: 0n,
      },
    ]);
    // A contract's refusal throws ContractError: one line with its message, exit 1.
    outcomeResult(outcome);
    const whitelisted = (await viewFunction(
      rpc,
      contractId,
      'get_whitelisted_agents_for_local',
      {},
    )) as string[];
    if (flags.json) {
      io.stdout.write(
        jsonText({
          accountId,
          contractId,
          ownerId: signer.accountId,
          whitelisted: !flags.remove,
          transactionHash: outcome.transaction?.hash,
          whitelist: whitelisted,
        }),
      );
      return EXIT_OK;
    }
    io.stdout.write(
      flags.remove
        ? `${accountId} removed from the whitelist of ${contractId} (by ${signer.accountId})\n`
        : `${accountId} whitelisted in ${contractId} (by ${signer.accountId}); it can register now\n`,
    );
    return EXIT_OK;
  });
}
