/** `block`: a block view (header and chunk headers) at a finality, height or hash. */
import { type BlockReference, blockParams } from './block-reference.js';
import type { CallOptions, RpcClient } from './rpc-client.js';

/** The fields of nearcore's `BlockView` callers read; the rest is there as JSON. */
export interface BlockView {
  author: string;
  header: {
    height: number;
    hash: string;
    prev_hash: string;
    timestamp_nanosec: string;
    epoch_id: string;
    gas_price: string;
    [field: string]: unknown;
  };
  chunks: Array<Record<string, unknown>>;
}

export function block(rpc: RpcClient, at?: BlockReference, options?: CallOptions): Promise<BlockView> {
  return rpc.call<BlockView>('block', blockParams(at), options);
}
