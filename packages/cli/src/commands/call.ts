/**
 * `shadebox call CONTRACT METHOD [ARGS_JSON]`: signs a FunctionCall with a key from the home (test.near's, or
 * a dev account's) or `--key`, sends it with `send_tx`, and prints the outcome as `shadebox tx` does.
 */
import { KeyPool, type Outcome, RpcError } from '@shadebox/near-client';
import { InvalidAmountError, isValidAccountId, parseNearAmount, TGAS } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_FAILURE, EXIT_OK } from '../exit-codes.js';
import { type FinalOutcomeView, formatOutcome } from '../inspect/format-outcome.js';
import { jsonArgs } from '../inspect/json-args.js';
import { outcomeBlockHeight } from '../inspect/outcome-block-height.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { DEFAULT_SIGNER, signingKey } from '../inspect/signing-key.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox call';
const DEFAULT_GAS_TGAS = 30;
const WAIT_LEVELS = ['INCLUDED', 'EXECUTED_OPTIMISTIC', 'INCLUDED_FINAL', 'EXECUTED', 'FINAL'] as const;

export const CALL_HELP = `Usage: shadebox call CONTRACT METHOD [ARGS_JSON] [--deposit NEAR] [--gas TGAS] [--as ACCOUNT]
                     [--key SECRET] [--wait LEVEL] [--rpc URL] [--home DIR] [--json]

Signs a transaction calling METHOD of CONTRACT with ARGS_JSON (default {}), sends it (send_tx) and prints
its outcome as 'shadebox tx' does: status, what it returned, gas and tokens burnt, the receipts and logs.

Options:
  --deposit NEAR attached deposit in NEAR, e.g. 0.1 or 1 (default 0)
  --gas TGAS     prepaid gas in Tgas (default ${DEFAULT_GAS_TGAS})
  --as ACCOUNT   the signer (default ${DEFAULT_SIGNER})
  --key SECRET   its secret key (ed25519:…). Default: the account's key from the home: test.near's in
                 validator_key.json, or one in another JSON file of the home holding {account_id,
                 secret_key} entries: --as dev-0.test.near signs with a dev account's key from
                 dev_accounts.json, --as agent.test.near with the key in mpc_accounts.json
  --wait LEVEL   send_tx's wait_until: INCLUDED, EXECUTED_OPTIMISTIC, INCLUDED_FINAL, EXECUTED (default)
                 or FINAL
${TARGET_HELP}
Exit codes: 0 the call succeeded, 1 it failed (the failure is printed) or was refused or no answer,
2 bad command line.
`;

const OPTIONS = {
  deposit: { type: 'string' },
  gas: { type: 'string' },
  as: { type: 'string' },
  key: { type: 'string' },
  wait: { type: 'string' },
  ...TARGET_OPTIONS,
} as const;

export async function callCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(CALL_HELP);
    return EXIT_OK;
  }
  const [contractId, method, argsText, extra] = positionals;
  if (contractId === undefined || method === undefined) {
    throw new UsageError(COMMAND, 'expected CONTRACT and METHOD');
  }
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!isValidAccountId(contractId))
    throw new UsageError(COMMAND, `invalid account id '${contractId}'`, contractId);
  if (flags.as !== undefined && !isValidAccountId(flags.as)) {
    throw new UsageError(
      COMMAND,
      `invalid value '${flags.as}' for --as: not a valid NEAR account id`,
      '--as',
    );
  }
  const bytes = jsonArgs(COMMAND, argsText);
  let deposit = 0n;
  if (flags.deposit !== undefined) {
    try {
      deposit = parseNearAmount(flags.deposit);
    } catch (error) {
      if (!(error instanceof InvalidAmountError)) throw error;
      throw new UsageError(
        COMMAND,
        `invalid value '${flags.deposit}' for --deposit: ${error.details.reason}`,
        '--deposit',
      );
    }
  }
  let gas = BigInt(DEFAULT_GAS_TGAS) * TGAS;
  if (flags.gas !== undefined) {
    if (!/^\d+(\.\d{1,3})?$/.test(flags.gas) || Number(flags.gas) <= 0) {
      throw new UsageError(
        COMMAND,
        `invalid value '${flags.gas}' for --gas: expected Tgas, e.g. 30 or 300`,
        '--gas',
      );
    }
    const [whole, fraction = ''] = flags.gas.split('.');
    gas = BigInt(whole!) * TGAS + (BigInt(fraction.padEnd(3, '0')) * TGAS) / 1000n;
  }
  const waitUntil = (flags.wait ?? 'EXECUTED') as (typeof WAIT_LEVELS)[number];
  if (!WAIT_LEVELS.includes(waitUntil)) {
    throw new UsageError(
      COMMAND,
      `invalid value '${flags.wait}' for --wait: expected one of ${WAIT_LEVELS.join(', ')}`,
      '--wait',
    );
  }
  const { rpc, url, nodeHome } = rpcTarget(COMMAND, io.cwd, flags);
  return runInspection(COMMAND, io, url, async () => {
    const signer = signingKey(COMMAND, nodeHome, flags);
    const pool = new KeyPool(rpc, signer.accountId, [signer.keyPair]);
    const outcome: Outcome = await pool.send(
      contractId,
      [{ type: 'FunctionCall', methodName: method, args: bytes, gas, deposit }],
      { waitUntil },
    );
    const failed =
      typeof outcome?.status === 'object' && outcome.status !== null && 'Failure' in outcome.status;
    if (flags.json) {
      io.stdout.write(jsonText(outcome));
      return failed ? EXIT_FAILURE : EXIT_OK;
    }
    // The same outcome with the receipts themselves (their actions), when the node has them.
    let view = outcome as FinalOutcomeView;
    const hash = view.transaction?.hash ?? view.transaction_outcome?.id;
    if (hash !== undefined && view.transaction_outcome !== undefined) {
      view = await rpc
        .call<FinalOutcomeView>('EXPERIMENTAL_tx_status', {
          tx_hash: hash,
          sender_account_id: signer.accountId,
          wait_until: 'NONE',
        })
        .catch((e) => {
          if (e instanceof RpcError) return view;
          throw e;
        });
    }
    io.stdout.write(formatOutcome(view, await outcomeBlockHeight(rpc, view)));
    return failed ? EXIT_FAILURE : EXIT_OK;
  });
}
