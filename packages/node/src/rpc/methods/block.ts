/**
 * `block`: a block by `finality` or `block_id` (also the legacy `[block_id]`).
 */
import {
  type BlockReference,
  notFoundText,
  parseBlockId,
  parseBlockReferenceEnum,
  resolveBlock,
} from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';

export function block(ctx: RpcContext, params: unknown) {
  // nearcore: `[block_id]`, else the params are a `BlockReference` (`Params<BlockReference>`), one key only.
  const ref: BlockReference =
    Array.isArray(params) && params.length === 1
      ? { block_id: parseBlockId(params[0]) }
      : parseBlockReferenceEnum(params);
  const record = resolveBlock(ctx.chain, ref);
  if (!record) {
    const text =
      'block_id' in ref ? notFoundText(ref.block_id, 'BLOCK') : 'DB Not Found Error: BLOCK \n Cause: Unknown';
    throw handlerError('UNKNOWN_BLOCK', {}, text);
  }
  return { rawJson: record.viewJson };
}
