/**
 * `query call_function`: a contract's view method, read-only. `viewFunction` sends JSON args and decodes the
 * result (JSON, else a string; empty → null); `viewFunctionRaw` takes and gives bytes. A failure in the
 * contract, a missing account or a missing contract is a `ContractError`.
 */
import { type BlockReference, blockParams } from './block-reference.js';
import { contractErrorFromText } from './contract-error.js';
import { decodeResult } from './decode-result.js';
import type { CallOptions, RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';

export interface RawViewResult {
  result: Uint8Array;
  logs: string[];
  blockHeight: number;
  blockHash: string;
}

const CONTRACT_CAUSES = ['CONTRACT_EXECUTION_ERROR', 'UNKNOWN_ACCOUNT', 'NO_CONTRACT_CODE'];

export async function viewFunctionRaw(
  rpc: RpcClient,
  contractId: string,
  methodName: string,
  args: Uint8Array,
  at?: BlockReference,
  options?: CallOptions,
): Promise<RawViewResult> {
  // biome-ignore lint/suspicious/noExplicitAny: JSON inspected field by field.
  let r: any;
  try {
    r = await rpc.call(
      'query',
      {
        request_type: 'call_function',
        ...blockParams(at),
        account_id: contractId,
        method_name: methodName,
        args_base64: Buffer.from(args).toString('base64'),
      },
      options,
    );
  } catch (e) {
    if (e instanceof RpcError && CONTRACT_CAUSES.includes(e.causeName ?? '')) {
      throw contractErrorFromText(
        String(e.error?.data ?? e.error?.cause?.info?.vm_error ?? e.message),
        e.causeName,
        e,
      );
    }
    throw e;
  }
  if (typeof r?.error === 'string') throw contractErrorFromText(r.error, undefined, undefined, r);
  return {
    result: Uint8Array.from(r?.result ?? []),
    logs: r.logs ?? [],
    blockHeight: r.block_height,
    blockHash: r.block_hash,
  };
}

/** Calls a view method with JSON args (`{}` when none) and returns its decoded result. */
export async function viewFunction(
  rpc: RpcClient,
  contractId: string,
  methodName: string,
  args: unknown,
  at?: BlockReference,
  options?: CallOptions,
): Promise<unknown> {
  const bytes = Buffer.from(JSON.stringify(args ?? {}));
  const { result } = await viewFunctionRaw(rpc, contractId, methodName, bytes, at, options);
  return decodeResult(result);
}
