/**
 * What RPC methods can use: the chain (read only), the transaction service, and facts about this node.
 */
import type { BlockProducer } from '../chain/block-producer.js';
import type { Chain } from '../chain/chain.js';
import type { TransactionService } from '../chain/transaction-service.js';
import type { RuntimeConfig } from '../config/runtime-config.js';
import type { IndexerRequests } from './indexer-requests.js';
import type { ReadCache } from './read-cache.js';
import type { ViewWorkerPool } from './view-worker-pool.js';

export interface RpcContext {
  chain: Chain;
  transactions: TransactionService;
  producer: BlockProducer;
  runtimeConfig: RuntimeConfig;
  /** `host:port` the RPC listens on. */
  rpcAddr: string;
  nodePublicKey: string;
  startedAt: number;
  version: { version: string; build: string; commit: string; rustc_version: string };
  /** How long `tx`/`send_tx` wait before TIMEOUT_ERROR (nearcore's polling_timeout, 10 s). */
  txTimeoutMs: number;
  /** Answers of read methods for the current head (rpc/read-cache.ts); absent = no caching. */
  readCache?: ReadCache;
  /** Worker threads that run `call_function` views (rpc/view-worker-pool.ts); absent = on the RPC's thread. */
  viewWorkers?: ViewWorkerPool;
  /** `EXPERIMENTAL_indexer_block`'s admission (config.json `rpc.enable_indexer_rpc`); absent = not served. */
  indexerRequests?: IndexerRequests;
}

/** A method's result: a value to serialise, or JSON text to splice in as is. */
export type MethodResult = unknown | { rawJson: string };

export type RpcMethod = (ctx: RpcContext, params: unknown) => MethodResult | Promise<MethodResult>;
