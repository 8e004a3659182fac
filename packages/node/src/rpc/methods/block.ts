/**
 * `block`: a block by `finality` or `block_id` (also the legacy `[block_id]`).
 */
import {
  type BlockReference,
  notFoundText,
  parseBlockId,
  parseBlockReference,
  resolveBlock,
} from '../block-reference.js';
import { failParse, objectParams } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';

export function block(ctx: RpcContext, params: unknown) {
  let ref: BlockReference;
  if (Array.isArray(params) && params.length === 1) {
    ref = { block_id: parseBlockId(params[0]) };
  } else {
    // nearcore: anything but a singleton is read as `RpcBlockRequest` (a struct with a flattened reference).
    if (Array.isArray(params)) failParse('invalid type: sequence, expected struct RpcBlockRequest');
    ref = parseBlockReference(objectParams(params))!;
  }
  const record = resolveBlock(ctx.chain, ref);
  if (!record) {
    const text =
      'block_id' in ref ? notFoundText(ref.block_id, 'BLOCK') : 'DB Not Found Error: BLOCK \n Cause: Unknown';
    throw handlerError('UNKNOWN_BLOCK', {}, text);
  }
  return { rawJson: record.viewJson };
}
