/**
 * `shadebox view CONTRACT METHOD [ARGS_JSON]`: calls a contract's view method (`query call_function`) and
 * prints what it returned: JSON pretty-printed, text as it is; the contract's logs go to stderr.
 */
import { decodeResult, viewFunctionRaw } from '@shadebox/near-client';
import { isValidAccountId } from '@shadebox/primitives';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { jsonArgs } from '../inspect/json-args.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox view';

export const VIEW_HELP = `Usage: shadebox view CONTRACT METHOD [ARGS_JSON] [--rpc URL] [--home DIR] [--json]

Calls a view method of CONTRACT at the latest block (query call_function) with ARGS_JSON (default {}) and
prints its result on stdout: JSON pretty-printed, other text as it is, nothing for an empty result. The
contract's logs go to stderr, one "log: ..." line each.
With --json: {"result": the decoded result, "logs": [...], "block_height": ..., "block_hash": ...}.

Options:
${TARGET_HELP}
Exit codes: 0 returned, 1 the call failed (the contract's error, no such method or contract) or no answer,
2 bad command line.
`;

export async function viewCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, TARGET_OPTIONS);
  if (flags.help) {
    io.stdout.write(VIEW_HELP);
    return EXIT_OK;
  }
  const [contractId, method, argsText, extra] = positionals;
  if (contractId === undefined || method === undefined) {
    throw new UsageError(COMMAND, 'expected CONTRACT and METHOD');
  }
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  if (!isValidAccountId(contractId))
    throw new UsageError(COMMAND, `invalid account id '${contractId}'`, contractId);
  const bytes = jsonArgs(COMMAND, argsText);
  const { rpc, url } = rpcTarget(COMMAND, io.cwd, flags);
  return runInspection(COMMAND, io, url, async () => {
    const r = await viewFunctionRaw(rpc, contractId, method, bytes);
    const result = decodeResult(r.result);
    if (flags.json) {
      io.stdout.write(
        jsonText({ result, logs: r.logs, block_height: r.blockHeight, block_hash: r.blockHash }),
      );
      return EXIT_OK;
    }
    for (const log of r.logs) io.stderr.write(`log: ${log}\n`);
    if (result === null) return EXIT_OK;
    io.stdout.write(typeof result === 'string' ? `${result}\n` : jsonText(result));
    return EXIT_OK;
  });
}
