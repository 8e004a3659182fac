/**
 * `gas_price`: `[null | height | hash]` or `{block_id}`; the price of the block (for the block after it).
 */
import { notFoundText, parseBlockId, resolveBlockId } from '../block-reference.js';
import { failParse, objectParams } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';

export function gasPrice(ctx: RpcContext, params: unknown) {
  let id: number | string | null = null;
  if (Array.isArray(params)) {
    if (params.length !== 1) failParse(`invalid length ${params.length}, expected a tuple of size 1`);
    id = params[0] === null ? null : parseBlockId(params[0]);
  } else if (params !== null && params !== undefined) {
    const p = objectParams(params);
    id = p.block_id === undefined || p.block_id === null ? null : parseBlockId(p.block_id);
  }
  const block = id === null ? ctx.chain.head : resolveBlockId(ctx.chain, id);
  if (!block) throw handlerError('UNKNOWN_BLOCK', {}, notFoundText(id!, 'BLOCK'));
  return { gas_price: block.gasPrice };
}
