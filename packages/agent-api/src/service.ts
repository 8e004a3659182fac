/**
 * The agent API service: boots the agent (boot.ts: derive → fund → register, each step retried with
 * exponential backoff) and serves the HTTP API (http-server.ts, routes.ts). Until registration is confirmed
 * every route but health answers 503 with the boot stage. Everything that leaves the process is redacted
 * (redaction.ts). No closure here refers to `config`: once booted, the service holds neither it nor the
 * funding key (boot.ts), only the values copied out of it.
 */
import { RpcClient } from '@shadebox/near-client';
import { type AgentApiStatus, type BootStage, bootAgent, REGISTER_GAS } from './boot.js';
import type { AgentApiConfig } from './config.js';
import { DEFAULT_GAS, MAX_GAS } from './contract-request.js';
import { BASE_PATH, serveAgentApi } from './http-server.js';
import { type AgentApiLogger, errorMessage, stderrLogger } from './logger.js';
import { createRedactor } from './redaction.js';
import { agentRoutes } from './routes.js';
import { dstackProvider, localProvider, type TeeProvider } from './tee/index.js';

export type { AgentApiLogger, AgentApiStatus, BootStage };
export { BASE_PATH, DEFAULT_GAS, MAX_GAS, REGISTER_GAS };

export interface RunningAgentApi {
  /** Base address, e.g. http://127.0.0.1:3140/api/agent */
  url: string;
  host: string;
  port: number;
  status(): AgentApiStatus;
  /** Resolves with the agent account id once registered. */
  onReady(): Promise<string>;
  stop(): Promise<void>;
}

export interface StartAgentApiOptions {
  log?: AgentApiLogger;
  /** The TEE provider (default: from `config.teeMode`). */
  tee?: TeeProvider;
  /** How many `/call`s may wait for the agent's balance at once (default 1024; more get 503 `queue_full`). */
  callQueueSize?: number;
  /** The `fetch` its JSON-RPC client uses (default the global one): `shadebox up` gives the node's own
   * (`RunningNode.fetch`), which answers the same JSON-RPC in its process without a socket. */
  fetch?: typeof fetch;
}

export async function startAgentApi(
  config: AgentApiConfig,
  options: StartAgentApiOptions = {},
): Promise<RunningAgentApi> {
  const redactor = createRedactor();
  const log = redactor.logger(options.log ?? stderrLogger);

  // Every call is retried across NEAR_RPC_URL's endpoints with backoff (429 and Retry-After honoured) within
  // 3× its request timeout (near-client's rpc-client.ts); boot steps retry on top of that until they succeed.
  const rpc = new RpcClient(config.rpcUrls, {
    timeoutMs: config.rpcTimeoutMs,
    idPrefix: 'agent-api',
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const tee =
    options.tee ?? (config.teeMode === 'dstack' ? dstackProvider(config.dstackEndpoint) : localProvider());

  const state: AgentApiStatus = { stage: 'derive', ready: false };
  let agentPool: Awaited<ReturnType<typeof bootAgent>>['pool'] | undefined;
  let stopped = false;
  const stopController = new AbortController();
  let resolveReady!: (id: string) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<string>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {});

  const routes = agentRoutes({
    rpc,
    state,
    agentPool: () => agentPool,
    agentContractId: config.agentContractId,
    allowedContracts: new Set([config.agentContractId, ...config.allowedContracts]),
    log,
    callQueueSize: options.callQueueSize,
    stopSignal: stopController.signal,
  });
  const server = await serveAgentApi({
    routes,
    state,
    port: config.port,
    host: config.host,
    corsOrigin: config.corsOrigin,
    redact: redactor.redact,
    log,
  });
  const port = server.port;
  const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${urlHost}:${port}${BASE_PATH}`;
  log.info({ url, mode: tee.mode, agentContractId: config.agentContractId }, 'agent API listening');

  const booting = bootAgent({
    config,
    rpc,
    tee,
    log,
    state,
    addSecret: redactor.addSecret,
    removeSecret: redactor.removeSecret,
    redact: redactor.redact,
    stopSignal: stopController.signal,
  }).then(
    ({ accountId, pool }) => {
      agentPool = pool;
      state.stage = 'ready';
      state.ready = true;
      log.info({ accountId }, 'boot: ready');
      resolveReady(accountId);
    },
    (e) => {
      if (!stopped) log.error({ error: errorMessage(e) }, 'boot aborted');
      rejectReady(e instanceof Error ? e : new Error(String(e)));
    },
  );

  return {
    url,
    host: config.host,
    port,
    status: () => ({ ...state }),
    onReady: () => ready,
    async stop() {
      if (stopped) return;
      stopped = true;
      stopController.abort();
      await server.close();
      await Promise.race([booting, new Promise((r) => setTimeout(r, 1000).unref())]);
    },
  };
}
