/**
 * `gas_price`: `[null | height | hash]` or `RpcGasPriceRequest { block_id: MaybeBlockId }`; the price of the block
 * (for the block after it).
 */
import { notFoundText, parseBlockId, parseMaybeBlockId, resolveBlockId } from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { optional, readStruct } from '../serde.js';

export function gasPrice(ctx: RpcContext, params: unknown) {
  const id =
    Array.isArray(params) && params.length === 1
      ? parseMaybeBlockId(params[0])
      : (readStruct(params, 'RpcGasPriceRequest', { block_id: optional(parseBlockId) }).block_id ?? null);
  const block = id === null ? ctx.chain.head : resolveBlockId(ctx.chain, id);
  if (!block) throw handlerError('UNKNOWN_BLOCK', {}, notFoundText(id!, 'BLOCK'));
  return { gas_price: block.gasPrice };
}
