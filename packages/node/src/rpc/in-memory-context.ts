/**
 * An RPC context over a fresh in-memory chain with manual block production, without a server: what the RPC
 * methods and `handleJsonRpc` need to run in process (the request-parsing and view tests use it).
 */
import { KeyPair } from '@shadebox/primitives';
import { BlockProducer } from '../chain/block-producer.js';
import { Chain } from '../chain/chain.js';
import { TransactionService } from '../chain/transaction-service.js';
import { TxPool } from '../chain/tx-pool.js';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { openMemoryStore } from '../store/memory-store.js';
import type { RpcContext } from './rpc-context.js';

export interface InMemoryRpcContextOptions {
  /** Blocks per epoch. Default 5. */
  epochLength?: number;
  /** Blocks produced before the context is returned. Default 0. */
  blocks?: number;
  /** Shards of the chain. Default 1. */
  numShards?: number;
}

export function createInMemoryRpcContext(options: InMemoryRpcContextOptions = {}): RpcContext & {
  /** The genesis account (`test.near`) and its key. */
  root: { accountId: string; key: KeyPair };
} {
  const home = createEphemeralHome({ epochLength: options.epochLength ?? 5, numShards: options.numShards });
  const runtimeConfig = loadRuntimeConfig(home.genesis.protocol_version);
  const chain = new Chain({
    store: openMemoryStore(),
    genesis: home.genesis,
    params: runtimeParamsFrom(runtimeConfig, home.genesis.chain_id),
    validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
    validatorAccountId: home.validatorKey.account_id,
  });
  const pool = new TxPool();
  const transactions = new TransactionService(chain, pool);
  const producer = new BlockProducer(chain, pool, { kind: 'manual' }, { hasWaiters: () => false });
  transactions.producer = producer;
  if (options.blocks) producer.produce(options.blocks);
  return {
    chain,
    transactions,
    producer,
    runtimeConfig,
    rpcAddr: '127.0.0.1:3030',
    nodePublicKey: home.nodeKey.public_key,
    startedAt: Date.now(),
    version: { version: 'in-memory', build: 'in-memory', commit: 'in-memory', rustc_version: 'in-memory' },
    txTimeoutMs: 50,
    root: { accountId: home.validatorKey.account_id, key: KeyPair.fromString(home.validatorKey.secret_key) },
  };
}
