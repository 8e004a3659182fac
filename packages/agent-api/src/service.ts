/**
 * The agent API service: boots the agent (derive → fund → register, each step retried with exponential
 * backoff) and serves the HTTP API: simple POSTs on a fast path straight off the socket, the rest on node:http. Until registration is confirmed every route but health
 * answers 503 with the boot stage.
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { type FastAnswer, listenBehindFastPath } from '@shadebox/http-fast-path';
import { type Action, fullAccessKey, hexEncode, KEY_TYPE_ED25519, KeyPair, TGAS } from '@shadebox/primitives';
import { HttpError, parseJsonBody, readBody } from './body.js';
import {
  availableBalance,
  ContractError,
  KeyPool,
  outcomeResult,
  viewAccount,
  viewFunction,
} from './chain.js';
import type { AgentApiConfig } from './config.js';
import { isValidAccountId } from './config.js';
import { openApiDocument } from './openapi.js';
import { ChainUnavailableError, RpcClient, RpcError } from './rpc.js';
import { dstackProvider, localProvider, type TeeProvider } from './tee/index.js';

export type BootStage = 'derive' | 'fund' | 'register' | 'ready';

export interface AgentApiStatus {
  stage: BootStage;
  ready: boolean;
  accountId?: string;
  lastError?: string;
}

/** Structured logging, pino-compatible (`log.info(fields, message)`). */
export interface AgentApiLogger {
  info(fields: object, message?: string): void;
  warn(fields: object, message?: string): void;
  error(fields: object, message?: string): void;
}

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
}

export const BASE_PATH = '/api/agent';
/**
 * Default gas of /call. Not the original's 300 Tgas: a transaction prepays its gas at the pessimistic gas
 * price, so 300 Tgas needs ~0.3 NEAR of balance, all an agent gets at boot.
 */
export const DEFAULT_GAS = 100n * TGAS;
export const REGISTER_GAS = 100n * TGAS;
export const MAX_GAS = 1000n * TGAS;

const stderrLogger: AgentApiLogger = {
  info: (fields, message) => console.error(JSON.stringify({ level: 'info', msg: message, ...fields })),
  warn: (fields, message) => console.error(JSON.stringify({ level: 'warn', msg: message, ...fields })),
  error: (fields, message) => console.error(JSON.stringify({ level: 'error', msg: message, ...fields })),
};

export async function startAgentApi(
  config: AgentApiConfig,
  options: StartAgentApiOptions = {},
): Promise<RunningAgentApi> {
  const secrets: string[] = [];
  /** One pattern matching every secret key, whole (`ed25519:…`) or its base58 body alone. */
  let secretPattern: RegExp | undefined;
  const addSecret = (secret: string) => {
    secrets.push(secret);
    const parts = secrets.flatMap((k) => {
      const body = k.slice(k.indexOf(':') + 1);
      return body.length > 20 ? [k, body] : [k];
    });
    secretPattern = new RegExp(parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|'), 'g');
  };
  addSecret(config.fundingKey.toString());
  /** Removes any secret key from text that leaves the process (responses, logs, status). */
  const redact = (text: string): string => (secretPattern ? text.replace(secretPattern, '[redacted]') : text);
  const baseLog = options.log ?? stderrLogger;
  const log: AgentApiLogger = {
    info: (f, m) => baseLog.info(JSON.parse(redact(JSON.stringify(f))), m && redact(m)),
    warn: (f, m) => baseLog.warn(JSON.parse(redact(JSON.stringify(f))), m && redact(m)),
    error: (f, m) => baseLog.error(JSON.parse(redact(JSON.stringify(f))), m && redact(m)),
  };

  const rpc = new RpcClient(config.rpcUrls, config.rpcTimeoutMs);
  const tee =
    options.tee ?? (config.teeMode === 'dstack' ? dstackProvider(config.dstackEndpoint) : localProvider());
  const allowed = new Set([config.agentContractId, ...config.allowedContracts]);

  const state: AgentApiStatus = { stage: 'derive', ready: false };
  let agentPool: KeyPool | undefined;
  let stopped = false;
  const stopController = new AbortController();
  let resolveReady!: (id: string) => void;
  let rejectReady!: (e: Error) => void;
  const ready = new Promise<string>((resolve, reject) => {
    resolveReady = resolve;
    rejectReady = reject;
  });
  ready.catch(() => {});

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const onAbort = () => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(() => {
        stopController.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      stopController.signal.addEventListener('abort', onAbort, { once: true });
    });

  async function step<T>(stage: BootStage, run: () => Promise<T>): Promise<T> {
    state.stage = stage;
    log.info({ stage }, `boot: ${stage}`);
    let delay = config.retryInitialMs;
    for (let attempt = 1; ; attempt++) {
      if (stopped) throw new Error('stopped');
      try {
        const value = await run();
        state.lastError = undefined;
        return value;
      } catch (e) {
        if (stopped) throw new Error('stopped');
        state.lastError = redact(errorMessage(e));
        log.warn(
          { stage, attempt, retryInMs: delay, error: state.lastError },
          `boot: ${stage} failed, retrying`,
        );
        await sleep(delay);
        delay = Math.min(delay * 2, config.retryMaxMs);
      }
    }
  }

  async function boot(): Promise<void> {
    const agentKey = await step('derive', async () => {
      const seed = await tee.agentSeed(randomBytes(32));
      return KeyPair.fromSecretBytes(KEY_TYPE_ED25519, seed);
    });
    addSecret(agentKey.toString());
    const accountId = hexEncode(agentKey.publicKey.data);
    state.accountId = accountId;
    log.info({ accountId, mode: tee.mode }, 'boot: agent account derived');
    const pool = new KeyPool(rpc, accountId, [agentKey]);
    const extraKeys = Array.from({ length: config.keyPoolSize }, () => KeyPair.fromRandom('ed25519'));
    for (const k of extraKeys) addSecret(k.toString());
    const funder = new KeyPool(rpc, config.fundingAccountId, [config.fundingKey]);

    await step('fund', async () => {
      const account = await viewAccount(rpc, accountId);
      const have = account?.amount ?? 0n;
      if (have < config.fundingAmount) {
        const funding = await viewAccount(rpc, config.fundingAccountId);
        if (!funding) throw new Error(`the funding account ${config.fundingAccountId} does not exist`);
        const need = config.fundingAmount - have;
        if (availableBalance(funding) < need) {
          throw new Error(
            `the funding account ${config.fundingAccountId} cannot spend ${need} yoctoNEAR (available ${availableBalance(funding)})`,
          );
        }
        outcomeResult(await funder.send(accountId, [{ type: 'Transfer', deposit: need }]));
        log.info({ accountId, amount: need.toString() }, 'boot: agent account funded');
      }
      if (extraKeys.length > 0) {
        const list = await rpc.call('query', {
          request_type: 'view_access_key_list',
          finality: 'optimistic',
          account_id: accountId,
        });
        const present = new Set((list?.keys ?? []).map((k: { public_key: string }) => k.public_key));
        const missing = extraKeys.filter((k) => !present.has(k.publicKeyString));
        if (missing.length > 0) {
          const actions: Action[] = missing.map((k) => ({
            type: 'AddKey',
            publicKey: k.publicKey,
            accessKey: fullAccessKey(),
          }));
          outcomeResult(await pool.send(accountId, actions));
          log.info({ accountId, keys: missing.length }, 'boot: key pool added');
        }
      }
    });
    pool.addKeys(extraKeys);
    agentPool = pool;

    await step('register', async () => {
      const args = await tee.registrationArgs(accountId, config.codehash);
      const current = await viewFunction(rpc, config.agentContractId, 'get_agent', {
        account_id: accountId,
      }).catch((e) => {
        if (e instanceof ContractError && /no worker found/.test(e.message)) return null;
        throw e;
      });
      if (current !== null && tee.isRegistered(current, args)) return;
      const result = outcomeResult(
        await pool.send(config.agentContractId, [
          {
            type: 'FunctionCall',
            methodName: 'register_agent',
            args: Buffer.from(JSON.stringify(args)),
            gas: REGISTER_GAS,
            deposit: 0n,
          },
        ]),
      );
      log.info({ accountId, result }, 'boot: register_agent sent');
      const record = await viewFunction(rpc, config.agentContractId, 'get_agent', { account_id: accountId });
      if (!tee.isRegistered(record, args)) throw new Error('get_agent does not show the registration');
    });
    state.stage = 'ready';
    state.ready = true;
    log.info({ accountId }, 'boot: ready');
    resolveReady(accountId);
  }

  // ---- HTTP ------------------------------------------------------------------------------------------

  /** A route's answer before it is written: JSON body (redacted when written) and extra headers. */
  interface Answer {
    status: number;
    body: unknown;
    headers?: Record<string, string>;
  }

  const routes: Record<string, { method: 'GET' | 'POST'; handler: (body: unknown) => unknown }> = {
    getAccountId: { method: 'POST', handler: () => ({ accountId: state.accountId }) },
    getBalance: {
      method: 'POST',
      handler: async () => {
        const account = await viewAccount(rpc, state.accountId!);
        return { balance: account ? availableBalance(account).toString() : '0' };
      },
    },
    call: {
      method: 'POST',
      handler: async (body) => {
        const req = contractRequest(body, true);
        const outcome = await agentPool!.send(req.contractId, [
          {
            type: 'FunctionCall',
            methodName: req.methodName,
            args: Buffer.from(JSON.stringify(req.args)),
            gas: req.gas,
            deposit: 0n,
          },
        ]);
        return outcomeResult(outcome);
      },
    },
    view: {
      method: 'POST',
      handler: async (body) => {
        const req = contractRequest(body, false);
        return viewFunction(rpc, req.contractId, req.methodName, req.args);
      },
    },
  };

  function contractRequest(
    body: unknown,
    withGas: boolean,
  ): { contractId: string; methodName: string; args: unknown; gas: bigint } {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new HttpError(400, 'invalid_body', 'the body must be a JSON object');
    }
    const b = body as Record<string, unknown>;
    if (typeof b.methodName !== 'string' || !/^[A-Za-z0-9_$]{1,256}$/.test(b.methodName)) {
      throw new HttpError(
        400,
        'invalid_field',
        'methodName must be a method name (letters, digits, _)',
        'methodName',
      );
    }
    const args = b.args ?? {};
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      throw new HttpError(400, 'invalid_field', 'args must be a JSON object', 'args');
    }
    let contractId = config.agentContractId;
    if (b.contractId !== undefined) {
      if (typeof b.contractId !== 'string' || !isValidAccountId(b.contractId)) {
        throw new HttpError(400, 'invalid_field', 'contractId must be an account id', 'contractId');
      }
      if (!allowed.has(b.contractId)) {
        throw new HttpError(
          403,
          'contract_not_allowed',
          `contract ${b.contractId} is not allowed`,
          'contractId',
        );
      }
      contractId = b.contractId;
    }
    let gas = DEFAULT_GAS;
    if (b.gas !== undefined) {
      if (!withGas) throw new HttpError(400, 'invalid_field', 'a view takes no gas', 'gas');
      const text = typeof b.gas === 'number' && Number.isSafeInteger(b.gas) ? String(b.gas) : b.gas;
      if (
        typeof text !== 'string' ||
        !/^\d{1,20}$/.test(text) ||
        BigInt(text) === 0n ||
        BigInt(text) > MAX_GAS
      ) {
        throw new HttpError(
          400,
          'invalid_field',
          'gas must be a decimal string, 1 ≤ gas ≤ 10^15 (1 PGas)',
          'gas',
        );
      }
      gas = BigInt(text);
    }
    if (b.deposit !== undefined) {
      throw new HttpError(
        400,
        'invalid_field',
        'deposit is not supported: calls attach no deposit',
        'deposit',
      );
    }
    return { contractId, methodName: b.methodName, args, gas };
  }

  function errorAnswer(e: unknown): Answer {
    let status = 500;
    let error: Record<string, string> = { code: 'internal', message: 'internal error' };
    let headers: Record<string, string> | undefined;
    if (e instanceof HttpError) {
      status = e.status;
      error = { code: e.code, message: e.message };
      if (e.field) error.field = e.field;
      headers = e.headers;
    } else if (e instanceof ContractError) {
      status = 422;
      error = { code: e.panic ? 'contract_panic' : 'contract_error', message: e.message };
    } else if (e instanceof ChainUnavailableError) {
      status = e.timeout ? 504 : 502;
      error = { code: e.timeout ? 'chain_timeout' : 'chain_unreachable', message: e.message };
    } else if (e instanceof RpcError && e.causeName === 'INVALID_TRANSACTION') {
      status = 422;
      error = { code: 'invalid_transaction', message: e.message };
    } else if (e instanceof RpcError) {
      status = 502;
      error = { code: 'chain_error', message: e.message };
    } else {
      log.error({ error: errorMessage(e) }, 'request failed');
    }
    return { status, body: { error }, headers };
  }

  const success = (result: unknown): Answer => ({ status: 200, body: result });

  /** The answer of a POST route to a request body, the same on the fast path and through node:http. */
  function answerPost(handler: (body: unknown) => unknown, text: string | Buffer): Answer | Promise<Answer> {
    if (!state.ready) {
      return {
        status: 503,
        body: {
          error: {
            code: 'not_ready',
            message: `the agent is booting (stage ${state.stage})`,
            stage: state.stage,
          },
        },
        headers: { 'retry-after': '1' },
      };
    }
    try {
      const result = handler(parseJsonBody(text));
      return result instanceof Promise ? result.then(success, errorAnswer) : success(result);
    } catch (e) {
      return errorAnswer(e);
    }
  }

  const corsHeaders: Record<string, string> = config.corsOrigin
    ? { 'access-control-allow-origin': config.corsOrigin, vary: 'Origin' }
    : {};

  /** The JSON text of an answer's body, secrets removed. */
  const answerText = (answer: Answer) =>
    redact(JSON.stringify(answer.body === undefined ? null : answer.body));

  function send(res: ServerResponse, answer: Answer): void {
    const text = answerText(answer);
    res.writeHead(answer.status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...corsHeaders,
      ...answer.headers,
    });
    res.end(text);
  }

  /** Every request the fast path does not take: health, OpenAPI, preflights, other verbs and paths, large or
   * chunked bodies. */
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // The path without query or fragment (cheaper than a URL object on every request).
    const raw = req.url ?? '/';
    const end = raw.search(/[?#]/);
    const path = (end === -1 ? raw : raw.slice(0, end)).replace(/\/+$/, '');
    const method = req.method ?? 'GET';
    if (!path.startsWith(`${BASE_PATH}/`)) throw new HttpError(404, 'not_found', `no route ${path || '/'}`);
    const name = path.slice(BASE_PATH.length + 1);
    if (config.corsOrigin && method === 'OPTIONS') {
      req.resume();
      res.writeHead(204, {
        ...corsHeaders,
        'access-control-allow-methods': 'GET, POST, OPTIONS',
        'access-control-allow-headers': 'content-type',
        'access-control-max-age': '600',
      });
      res.end();
      return;
    }
    if (name === 'health' || name === 'openapi.json') {
      if (method !== 'GET' && method !== 'HEAD') {
        throw new HttpError(405, 'method_not_allowed', `${name} takes GET`, undefined, {
          allow: 'GET, HEAD',
        });
      }
      req.resume();
      if (name === 'openapi.json') return send(res, success(openApiDocument(`${BASE_PATH}`)));
      const { stage, ready: isReady, accountId } = state;
      return send(res, {
        status: isReady ? 200 : 503,
        body: {
          status: isReady ? 'ok' : 'booting',
          stage,
          ready: isReady,
          ...(accountId ? { accountId } : {}),
        },
      });
    }
    const route = Object.hasOwn(routes, name) ? routes[name] : undefined;
    if (!route) throw new HttpError(404, 'not_found', `no route ${path}`);
    if (method !== route.method) {
      throw new HttpError(405, 'method_not_allowed', `${name} takes ${route.method}`, undefined, {
        allow: route.method,
      });
    }
    const bytes = await readBody(req);
    send(res, await answerPost(route.handler, bytes));
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      if (e instanceof HttpError && e.status === 413) res.setHeader('connection', 'close');
      send(res, errorAnswer(e));
    });
  });
  server.requestTimeout = 120_000;

  // The public port: `POST {BASE_PATH}/<route>` with a Content-Length is answered straight off the socket,
  // everything else is relayed to node:http above (see @shadebox/http-fast-path).
  const fastPaths = new Map(
    Object.entries(routes)
      .filter(([, route]) => route.method === 'POST')
      .map(([name, route]) => [`${BASE_PATH}/${name}`, route.handler]),
  );
  const fastHeaders = Object.entries({ 'cache-control': 'no-store', ...corsHeaders })
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const toFast = (answer: Answer): FastAnswer => ({
    status: answer.status,
    contentType: 'application/json; charset=utf-8',
    body: answerText(answer),
    headers: answer.headers
      ? fastHeaders +
        Object.entries(answer.headers)
          .map(([name, value]) => `${name}: ${value}\r\n`)
          .join('')
      : fastHeaders,
  });
  const front = await listenBehindFastPath(
    server,
    {
      rule: { acceptsPath: (path) => fastPaths.has(path), contentType: 'any' },
      handle: (request) => {
        const answer = answerPost(fastPaths.get(request.path)!, request.body);
        return answer instanceof Promise ? answer.then(toFast) : toFast(answer);
      },
      onError: (e) => log.error({ error: errorMessage(e) }, 'request failed'),
    },
    config.port,
    config.host,
  );
  const port = front.address.port;
  const urlHost = config.host.includes(':') ? `[${config.host}]` : config.host;
  const url = `http://${urlHost}:${port}${BASE_PATH}`;
  log.info({ url, mode: tee.mode, agentContractId: config.agentContractId }, 'agent API listening');

  const booting = boot().catch((e) => {
    if (!stopped) log.error({ error: errorMessage(e) }, 'boot aborted');
    rejectReady(e instanceof Error ? e : new Error(String(e)));
  });

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
      await front.close();
      await Promise.race([booting, new Promise((r) => setTimeout(r, 1000).unref())]);
    },
  };
}

function errorMessage(e: unknown): string {
  if (e instanceof Error) return e.message;
  return String(e);
}
