/** `status`: the node's version, chain id, sync info and validators. */
import type { CallOptions, RpcClient } from './rpc-client.js';

/** The fields of nearcore's `StatusResponse` callers read; the rest is there as JSON. */
export interface NodeStatus {
  chain_id: string;
  protocol_version: number;
  latest_protocol_version: number;
  version: { version: string; build: string; rustc_version?: string };
  sync_info: {
    latest_block_hash: string;
    latest_block_height: number;
    latest_block_time: string;
    syncing: boolean;
    [field: string]: unknown;
  };
  [field: string]: unknown;
}

export function status(rpc: RpcClient, options?: CallOptions): Promise<NodeStatus> {
  return rpc.call<NodeStatus>('status', [], options);
}
