/**
 * `shadebox tx HASH`: a transaction and the tree of its receipts, read with `EXPERIMENTAL_tx_status` from any
 * NEAR RPC: who sent what to whom, the status in a sentence, gas and tokens burnt, each receipt's logs.
 */
import { RpcError } from '@shadebox/near-client';
import { isValidAccountId } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { type FinalOutcomeView, formatOutcome } from '../inspect/format-outcome.js';
import { NotFoundError } from '../inspect/not-found-error.js';
import { outcomeBlockHeight } from '../inspect/outcome-block-height.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox tx';

/**
 * nearcore's `tx` asks for the signer to find the transaction's shard; a node that tracks every shard (every
 * RPC node, Shadebox's) finds it by its hash alone, so without --sender any valid account id does.
 */
const ANY_SENDER = 'near';

export const TX_HELP = `Usage: shadebox tx HASH [--sender ID] [--rpc URL] [--home DIR] [--json]

Shows a transaction: signer → receiver, its actions, its status in a sentence (a failure says which action
failed and why), the gas and tokens burnt, and the tree of its receipts with their actions, status, gas and
logs. Read with EXPERIMENTAL_tx_status (wait_until NONE: the answer is what the node knows now).

Options:
  --sender ID    the transaction's signer: nearcore looks the transaction up in its signer's shard; nodes
                 that track every shard (RPC nodes, Shadebox's) find it by hash alone
${TARGET_HELP}
Exit codes: 0 shown (whatever the transaction's status), 1 unknown transaction or no answer, 2 bad command line.
`;

const OPTIONS = { sender: { type: 'string' }, ...TARGET_OPTIONS } as const;

export async function txCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(TX_HELP);
    return EXIT_OK;
  }
  const [hash, extra] = positionals;
  if (hash === undefined) throw new UsageError(COMMAND, 'missing the transaction hash');
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(hash)) {
    throw new UsageError(COMMAND, `invalid transaction hash '${hash}': expected base58 of 32 bytes`, hash);
  }
  const sender = flags.sender ?? ANY_SENDER;
  if (!isValidAccountId(sender)) {
    throw new UsageError(
      COMMAND,
      `invalid value '${sender}' for --sender: not a valid NEAR account id`,
      '--sender',
    );
  }
  const { rpc, url } = rpcTarget(COMMAND, io.cwd, flags);
  return runInspection(COMMAND, io, url, async () => {
    let view: FinalOutcomeView;
    try {
      view = await rpc.call<FinalOutcomeView>('EXPERIMENTAL_tx_status', {
        tx_hash: hash,
        sender_account_id: sender,
        wait_until: 'NONE',
      });
    } catch (error) {
      if (error instanceof RpcError && error.causeName === 'UNKNOWN_TRANSACTION') {
        throw new NotFoundError(
          'transaction',
          hash,
          `transaction ${hash} is not known to ${url} (not sent there, still in the pool, or older than its history: try an archival --rpc)`,
        );
      }
      throw error;
    }
    if (flags.json) {
      io.stdout.write(jsonText(view));
      return EXIT_OK;
    }
    io.stdout.write(formatOutcome(view, await outcomeBlockHeight(rpc, view)));
    return EXIT_OK;
  });
}
