/**
 * `shadebox account ID`: an account's balance in NEAR (total, locked, available), storage, contract and access
 * keys, read with `query view_account` and `view_access_key_list`.
 */
import {
  type AccessKeyListEntry,
  type AccountView,
  availableBalance,
  NO_CODE_HASH,
  STORAGE_BYTE_COST,
  viewAccessKeyList,
  viewAccount,
} from '@shadebox/near-client';
import { isValidAccountId } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { describePermission } from '../inspect/describe-actions.js';
import { formatNear } from '../inspect/format-units.js';
import { NotFoundError } from '../inspect/not-found-error.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { formatRows, type Row } from '../inspect/text-table.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox account';

export const ACCOUNT_HELP = `Usage: shadebox account ID [--rpc URL] [--home DIR] [--json]

Shows an account at the latest block: its balance in NEAR (total, locked by staking, available to spend),
its storage (bytes and the NEAR they lock), its contract (code hash, or none) and its access keys with their
nonces and permissions.
With --json: {"account": the RPC's view_account answer, "keys": the RPC's view_access_key_list "keys"}.

Options:
${TARGET_HELP}
Exit codes: 0 shown, 1 no such account or no answer, 2 bad command line.
`;

export async function accountCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, TARGET_OPTIONS);
  if (flags.help) {
    io.stdout.write(ACCOUNT_HELP);
    return EXIT_OK;
  }
  const [accountId, extra] = positionals;
  if (accountId === undefined) throw new UsageError(COMMAND, 'missing the account id');
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!isValidAccountId(accountId)) {
    throw new UsageError(COMMAND, `invalid account id '${accountId}'`, accountId);
  }
  const { rpc, url } = rpcTarget(COMMAND, io.cwd, flags);
  return runInspection(COMMAND, io, url, async () => {
    if (flags.json) {
      // The RPC's own answers, read at one block.
      const account = await rpc
        .call('query', { request_type: 'view_account', finality: 'optimistic', account_id: accountId })
        .catch((e) => {
          throw notFound(e, accountId, url);
        });
      const keys = await rpc.call('query', {
        request_type: 'view_access_key_list',
        block_id: account.block_hash,
        account_id: accountId,
      });
      io.stdout.write(jsonText({ account, keys: keys.keys }));
      return EXIT_OK;
    }
    const account = await viewAccount(rpc, accountId);
    if (account === null) throw notFound(undefined, accountId, url);
    const keys = await viewAccessKeyList(rpc, accountId, { blockId: account.blockHash });
    io.stdout.write(formatAccount(accountId, account, keys));
    return EXIT_OK;
  });
}

function notFound(error: unknown, accountId: string, url: string): unknown {
  const cause = (error as { causeName?: string } | undefined)?.causeName;
  if (error !== undefined && cause !== 'UNKNOWN_ACCOUNT') return error;
  return new NotFoundError('account', accountId, `account ${accountId} does not exist on ${url}`);
}

function formatAccount(accountId: string, a: AccountView, keys: AccessKeyListEntry[]): string {
  const rows: Row[] = [
    ['Account', accountId],
    ['Balance', formatNear(a.amount)],
  ];
  if (a.locked > 0n) rows.push(['Locked', `${formatNear(a.locked)} (staked)`]);
  rows.push(
    ['Available', formatNear(availableBalance(a))],
    ['Storage', `${a.storageUsage} bytes (locks ${formatNear(a.storageUsage * STORAGE_BYTE_COST)})`],
    ['Contract', a.codeHash === NO_CODE_HASH ? 'none' : `code hash ${a.codeHash}`],
    ['At block', `${a.blockHeight} (${a.blockHash})`],
  );
  if (keys.length === 0) rows.push(['Keys', 'none']);
  for (const [i, k] of keys.entries()) {
    rows.push([
      i === 0 ? `Keys (${keys.length})` : '',
      `${k.publicKey}  nonce ${k.nonce}  ${describePermission(k.permission)}`,
    ]);
  }
  return formatRows(rows);
}
