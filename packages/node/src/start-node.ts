/**
 * Starts a node: opens (or creates) its home and store, the chain, the block producer and the RPC server.
 * `startNode(options) -> { rpcUrl, stop() }` is what programs and tests use; the CLI wraps it.
 */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { KeyPair, sha256 } from '@shadebox/primitives';
import { BlockProducer, type ProductionMode } from './chain/block-producer.js';
import { Chain } from './chain/chain.js';
import type { ChainCacheLimits } from './chain/chain-store.js';
import { DEFAULT_MEMORY_HISTORY_BUDGET_BYTES, GarbageCollector } from './chain/garbage-collector.js';
import { chainBlocks, HeapTrim } from './chain/heap-trim.js';
import { NodeStoppingError } from './chain/node-stopping-error.js';
import { TransactionService } from './chain/transaction-service.js';
import { TxPool } from './chain/tx-pool.js';
import { deriveDevAccounts } from './config/dev-accounts.js';
import { genesisAccountIdFor } from './config/genesis-account.js';
import type { GenesisContract } from './config/genesis-defaults.js';
import { type HomeLock, lockHome } from './config/home-lock.js';
import { createEphemeralHome, type Home, initHome, loadHome } from './config/init-home.js';
import {
  DEFAULT_STORE_MAP_BUDGET_MB,
  durationToMs,
  effectiveGcNumEpochsToKeep,
  MIN_GC_NUM_EPOCHS_TO_KEEP,
  parseListenAddr,
} from './config/node-config.js';
import { loadRuntimeConfig } from './config/runtime-config.js';
import { createLogger, type Logger } from './logger.js';
import {
  checkExplorerSettings,
  type ExplorerSettings,
  NO_EXPLORER_SETTINGS,
} from './rpc/explorer-settings.js';
import { startRpcServer } from './rpc/http-server.js';
import { inProcessFetch } from './rpc/in-process-fetch.js';
import { IndexerRequests } from './rpc/indexer-requests.js';
import { ReadCache } from './rpc/read-cache.js';
import { runtimeParamsFrom } from './runtime/runtime-params.js';
import type { KeyValueStore } from './store/key-value-store.js';
import { openLmdbStore } from './store/lmdb-store.js';
import { openMemoryStore } from './store/memory-store.js';

export const NODE_VERSION = {
  version: '0.1.0',
  build: 'shadebox',
  commit: 'unknown',
  rustc_version: 'n/a (TypeScript)',
};

export interface StartNodeOptions {
  /** Home directory (genesis.json, config.json, keys, data/). Created with defaults when it holds no home. */
  home?: string;
  /** Keep everything in memory: a fresh chain that disappears on stop. */
  memory?: boolean;
  /** Listen host. Default: from config.json (127.0.0.1). */
  host?: string;
  /** Listen port; 0 picks a free one. Default: from config.json (3030). */
  rpcPort?: number;
  /** Block production. Default: from config.json (automine). */
  production?: ProductionMode;
  /** Shards of a new chain (ignored for an existing home). */
  numShards?: number;
  /** Chain id of a new chain (ignored for an existing home, which keeps its own). Default `localnet`;
   * `testnet` makes a testnet twin whose genesis account is `testnet` (config/genesis-account.ts). */
  chainId?: string;
  /** Code a new chain deploys at genesis on its genesis accounts (ignored for an existing home): a testnet
   * twin's registrar on `testnet`. */
  genesisContracts?: readonly GenesisContract[];
  /** A file with the ETH wallet contract for a new chain (ignored for an existing home, which keeps its
   * `shadebox.eth_wallet_contract`): deployed as a global contract at genesis, used by ETH-implicit accounts. */
  ethWalletContract?: string;
  /** Blocks per epoch of a new chain (ignored for an existing home). Default 500. */
  epochLength?: number;
  /** Genesis `protocol_version` of a new chain (ignored for an existing home). Default 86, as mainnet. */
  protocolVersion?: number;
  /** How long `tx`/`send_tx` wait before TIMEOUT_ERROR, in ms. Default: config.json's
   * `rpc.polling_config.polling_timeout` (10 s). */
  txTimeoutMs?: number;
  /** Keep all history (nearcore's `archive`). Default: config.json's `archive` (false). */
  archive?: boolean;
  /** Epochs of history a regular node keeps (raised to nearcore's minimum, 3). Default: config.json's
   * `gc_num_epochs_to_keep` (5). */
  gcNumEpochsToKeep?: number;
  /** Bytes of history (what the kept blocks wrote) a regular node keeps within its epochs before the oldest
   * heights go (chain/garbage-collector.ts); 0: epochs only. Default: 16 MiB with `memory` (its history is
   * its RSS), 0 with a home (on disk). */
  historyBudgetBytes?: number;
  /** Run a full JS garbage collection when the used heap grew by 16 MiB since the last one, and when block
   * production goes quiet after a burst of blocks, and one memory-reducing collection once the node is quiet
   * after its start (chain/heap-trim.ts). Default true. */
  heapTrim?: boolean;
  /** Also serve an archival endpoint on this port (0 picks a free one), on the same host. The node then
   * keeps its full history; its regular endpoint answers as a regular node (GC rules), the archival one
   * serves every height. */
  archivalRpcPort?: number;
  /** nearcore's `consensus.min_block_production_delay` / `max_block_production_delay`, ms: their average is
   * the time one height skipped by `sandbox_fast_forward` adds to block timestamps. Default 600 / 2000. */
  blockProductionDelaysMs?: { min: number; max: number };
  /** Automine: milliseconds between blocks while a yielded promise waits for its resume (and nothing else is
   * to do), so it times out after 200 blocks as on NEAR. Default 600 (NEAR's block time). */
  yieldBlockTimeMs?: number;
  /** Dev accounts a new chain funds at genesis (config/dev-accounts.ts): `count` accounts whose keys derive
   * from `seed`. An existing home keeps the accounts it has. Default none. */
  devAccounts?: { count: number; seed: string };
  log?: Logger;
  /** The command line the home's lock names (default: this process's). */
  lockCommand?: string;
  /** Bytes of the LMDB store's file the node holds mapped (its RSS) before it drops and remakes the map;
   * 0 never. Default: config.json's `shadebox.store_map_budget_mb` (16 MiB). */
  storeMapBudgetBytes?: number;
  /** Bounds of the chain's in-memory caches of parsed blocks, transactions, receipts and outcomes, in
   * entries and bytes. Default: 1,024 blocks / 1 MiB, and 8,192 records / 1 MiB of each other kind. */
  cacheLimits?: ChainCacheLimits;
  /** Worker threads for `call_function` views, started on the first view; 0 runs views on the RPC's thread.
   * Default: one per core beside the RPC's (at most 4), or `SHADEBOX_VIEW_WORKERS`. */
  viewWorkers?: number;
  /** Serve `EXPERIMENTAL_indexer_block`. Default: config.json's `rpc.enable_indexer_rpc` (false). */
  enableIndexerRpc?: boolean;
}

export interface RunningNode {
  rpcUrl: string;
  /** The archival endpoint, when `archivalRpcPort` was given. */
  archivalRpcUrl?: string;
  chainId: string;
  home: string | null;
  /** The genesis account and its key (the validator: `test.near`, `testnet` on a testnet twin), for funding
   * other accounts. */
  accounts: Array<{ accountId: string; publicKey: string; secretKey: string }>;
  /** The funded dev accounts of the chain (none for a home made without them). */
  devAccounts: Array<{ accountId: string; publicKey: string; secretKey: string }>;
  chain: Chain;
  producer: BlockProducer;
  /** The JSON-RPC of `rpcUrl` answered in this process, without a socket (rpc/in-process-fetch.ts): a `fetch`
   * for the services beside the node (the MPC responder). Views asked through it run on the node's thread, so
   * their answers come before the next block. */
  fetch: typeof fetch;
  /** The same JSON-RPC in this process, views answered by the view workers as over the port: for a service
   * beside the node that does not need a view's answer before the next block (`shadebox up`'s agent API). */
  fetchWithViewWorkers: typeof fetch;
  /** What the explorer page shows beside the chain (rpc/explorer-settings.ts): the local EVM chain, once the
   * services that start after the node run it (`{ evm: { rpcUrl, chainId } }`), or `{ evm: null }`. Both
   * endpoints' pages read it at their next load. Throws a TypeError for a malformed value. */
  setExplorerSettings(settings: ExplorerSettings): void;
  stop(): Promise<void>;
}

export async function startNode(options: StartNodeOptions = {}): Promise<RunningNode> {
  const log = options.log ?? createLogger('shadebox-node');
  // The home is this process's until stop(): a second node on it is refused (config/home-lock.ts).
  let lock: HomeLock | undefined;
  if (!options.memory && options.home) {
    const dir = resolve(options.home);
    mkdirSync(dir, { recursive: true });
    lock = lockHome(dir, options.lockCommand);
  }
  try {
    return await startLocked(options, log, lock);
  } catch (error) {
    lock?.release();
    throw error;
  }
}

async function startLocked(
  options: StartNodeOptions,
  log: Logger,
  lock: HomeLock | undefined,
): Promise<RunningNode> {
  const home = await openHome(options);
  const listen = parseListenAddr(home.config.rpc.addr) ?? { host: '127.0.0.1', port: 3030 };
  const host = options.host ?? listen.host;
  const port = options.rpcPort ?? listen.port;
  const production = options.production ?? productionFromConfig(home);

  // The rules of the genesis protocol version (validated when the genesis was read).
  const runtimeConfig = loadRuntimeConfig(home.genesis.protocol_version);
  // Made once the chain is: the store's remaps count towards its collections (store/lmdb-store.ts `onRemap`).
  let heapTrim: HeapTrim | undefined;
  const store: KeyValueStore = home.dir
    ? openLmdbStore(join(home.dir, home.config.store.path), {
        mapBudgetBytes:
          options.storeMapBudgetBytes ??
          (home.config.shadebox.store_map_budget_mb ?? DEFAULT_STORE_MAP_BUDGET_MB) * 2 ** 20,
        onRemap: () => heapTrim?.nativeReleased(),
      })
    : openMemoryStore();
  let chain: Chain;
  try {
    chain = new Chain({
      store,
      genesis: home.genesis,
      params: { ...runtimeParamsFrom(runtimeConfig, home.genesis.chain_id), ethWallet: readEthWallet(home) },
      validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
      validatorAccountId: home.validatorKey.account_id,
      cacheLimits: options.cacheLimits,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  if (chain.rebuiltTries) {
    const { height, roots } = chain.rebuiltTries;
    log.info(
      { height, stateRoots: roots },
      `state trie rebuilt from the flat state at height ${height} (a home made before the trie was kept; blocks below keep their old state roots)`,
    );
  }
  const archive = options.archive ?? home.config.archive;
  const withArchivalEndpoint = options.archivalRpcPort !== undefined;
  const gc = archive
    ? undefined
    : new GarbageCollector(chain, {
        numEpochsToKeep:
          options.gcNumEpochsToKeep === undefined
            ? effectiveGcNumEpochsToKeep(home.config)
            : Math.max(options.gcNumEpochsToKeep, MIN_GC_NUM_EPOCHS_TO_KEEP),
        // With an archival endpoint the store keeps everything; the regular endpoint only applies the rules.
        mode: withArchivalEndpoint ? 'view' : 'delete',
        historyBudgetBytes:
          options.historyBudgetBytes ??
          (options.memory && !withArchivalEndpoint ? DEFAULT_MEMORY_HISTORY_BUDGET_BYTES : 0),
      });
  heapTrim =
    options.heapTrim === false ? undefined : new HeapTrim(chainBlocks(chain), { settleAfterStart: true });
  const archivalChain = withArchivalEndpoint ? chain.archivalView() : undefined;
  const pool = new TxPool();
  const transactions = new TransactionService(chain, pool);
  const archivalTransactions = archivalChain && new TransactionService(archivalChain, pool);
  const producer = new BlockProducer(chain, pool, production, {
    hasWaiters: () => transactions.hasActiveWaiters() || (archivalTransactions?.hasActiveWaiters() ?? false),
    onDropped: (dropped) => {
      for (const d of dropped) log.debug({ tx: d.error.json }, 'transaction dropped at inclusion');
    },
    onError: (error) => log.error({ err: error }, 'block production failed'),
    onIdle: () => heapTrim?.burstEnded(),
  });
  transactions.producer = producer;
  if (options.blockProductionDelaysMs) {
    const { min, max } = options.blockProductionDelaysMs;
    producer.averageBlockTimeNs = BigInt(Math.round(((min + max) / 2) * 1_000_000));
  }
  if (options.yieldBlockTimeMs !== undefined) producer.yieldBlockTimeMs = options.yieldBlockTimeMs;
  producer.onProgress = ({ task, done, total }) =>
    log.info({ done, total }, `${task}: ${done} of ${total} heights${done === total ? ', done' : ''}`);
  if (archivalTransactions) archivalTransactions.producer = producer;
  gc?.start();
  heapTrim?.start();
  chain.on('block', (block) => log.debug({ height: block.height, hash: block.hash }, 'block'));

  const ctx = {
    chain,
    transactions,
    producer,
    runtimeConfig,
    rpcAddr: `${host}:${port}`,
    nodePublicKey: home.nodeKey.public_key,
    startedAt: Date.now(),
    version: NODE_VERSION,
    txTimeoutMs: options.txTimeoutMs ?? durationToMs(home.config.rpc.polling_config.polling_timeout),
    readCache: new ReadCache(),
    indexerRequests:
      (options.enableIndexerRpc ?? home.config.rpc.enable_indexer_rpc)
        ? new IndexerRequests(home.config.rpc.indexer_max_concurrent_requests)
        : undefined,
  };
  let explorerSettings = NO_EXPLORER_SETTINGS;
  const readExplorerSettings = () => explorerSettings;
  let server: Awaited<ReturnType<typeof startRpcServer>>;
  try {
    server = await startRpcServer(ctx, {
      host,
      port,
      maxBodyBytes: home.config.rpc.limits_config.json_payload_max_size,
      log,
      viewWorkers: options.viewWorkers,
      explorerSettings: readExplorerSettings,
    });
  } catch (error) {
    gc?.stop();
    heapTrim?.stop();
    await store.close();
    throw error;
  }
  let archivalServer: Awaited<ReturnType<typeof startRpcServer>> | undefined;
  if (archivalChain && archivalTransactions) {
    try {
      archivalServer = await startRpcServer(
        {
          ...ctx,
          chain: archivalChain,
          transactions: archivalTransactions,
          rpcAddr: `${host}:${options.archivalRpcPort}`,
          readCache: new ReadCache(),
        },
        {
          host,
          port: options.archivalRpcPort!,
          maxBodyBytes: home.config.rpc.limits_config.json_payload_max_size,
          log,
          explorerSettings: readExplorerSettings,
        },
      );
    } catch (error) {
      gc?.stop();
      heapTrim?.stop();
      await server.close();
      await store.close();
      throw error;
    }
  }
  producer.start();

  let stopped: Promise<void> | undefined;
  return {
    rpcUrl: server.url,
    ...(archivalServer ? { archivalRpcUrl: archivalServer.url } : {}),
    chainId: home.genesis.chain_id,
    home: home.dir,
    accounts: [
      {
        accountId: home.validatorKey.account_id,
        publicKey: home.validatorKey.public_key,
        secretKey: home.validatorKey.secret_key,
      },
    ],
    devAccounts: home.devAccounts.map((a) => ({
      accountId: a.account_id,
      publicKey: a.public_key,
      secretKey: a.secret_key,
    })),
    chain,
    producer,
    fetch: inProcessFetch(
      ctx,
      () => stopped !== undefined,
      (e) => log.error({ err: e }, 'rpc method failed'),
    ),
    fetchWithViewWorkers: inProcessFetch(
      ctx,
      () => stopped !== undefined,
      (e) => log.error({ err: e }, 'rpc method failed'),
      { viewsInThread: false },
    ),
    setExplorerSettings(settings) {
      explorerSettings = checkExplorerSettings(settings);
    },
    stop() {
      // Every request gets an answer before the store closes: new ones are refused (503) at once; the chain
      // stops moving, which ends a running fast-forward and every wait on a transaction with
      // NodeStoppingError (answered 503 too); the servers then let what is in flight finish, and close.
      stopped ??= (async () => {
        server.beginStop();
        archivalServer?.beginStop();
        producer.stop();
        gc?.stop();
        heapTrim?.stop();
        transactions.close(new NodeStoppingError());
        archivalTransactions?.close(new NodeStoppingError());
        await Promise.all([server.close(), archivalServer?.close()]);
        await store.close();
        lock?.release();
      })();
      return stopped;
    },
  };
}

async function openHome(options: StartNodeOptions): Promise<Home> {
  const chain = {
    chainId: options.chainId,
    genesisContracts: options.genesisContracts,
    numShards: options.numShards,
    epochLength: options.epochLength,
    protocolVersion: options.protocolVersion,
    devAccounts:
      options.devAccounts === undefined
        ? undefined
        : deriveDevAccounts(
            options.devAccounts.seed,
            options.devAccounts.count,
            genesisAccountIdFor(options.chainId),
          ),
    ethWalletContract: options.ethWalletContract,
  };
  if (options.memory || !options.home) return createEphemeralHome(chain);
  const dir = resolve(options.home);
  if (!existsSync(join(dir, 'genesis.json'))) return initHome(dir, chain);
  return loadHome(dir);
}

/** The ETH wallet contract the home names, read once. */
function readEthWallet(home: Home): { code: Uint8Array; codeHash: Uint8Array } | undefined {
  const file = home.config.shadebox.eth_wallet_contract;
  if (!file) return undefined;
  const code = new Uint8Array(readFileSync(resolve(home.dir ?? '.', file)));
  return { code, codeHash: sha256(code) };
}

function productionFromConfig(home: Home): ProductionMode {
  const s = home.config.shadebox;
  if (s.production === 'interval') return { kind: 'interval', blockTimeMs: s.block_time_ms };
  return { kind: s.production };
}
