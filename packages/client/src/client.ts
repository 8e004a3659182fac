/**
 * The agent API client: the functions of `@neardefi/shade-agent-js` 1.0.x (`agent`, `agentAccountId`,
 * `agentInfo`, `agentView`, `agentCall`, `requestSignature`) plus `agentBalance`, over `fetch` only.
 */
import { AgentApiError, AgentApiTimeoutError, AgentApiUnreachableError } from './errors.js';
import type {
  AgentAccountIdResponse,
  AgentBalanceResponse,
  AgentInfoResponse,
  ContractCallArgs,
  ContractViewArgs,
  EcdsaSignatureResponse,
  EddsaSignatureResponse,
  RequestSignatureArgs,
  SignatureResponse,
} from './types.js';

/** Default time a call may take: 60 s, as the Python wrapper of the original API. */
export const DEFAULT_TIMEOUT_MS = 60_000;

export interface AgentClientOptions {
  /** Base address, e.g. `http://localhost:3140/api/agent`. Default: see {@link defaultBaseUrl}. */
  baseUrl?: string;
  /** Time allowed per call, request and response body included (default 60 000 ms). */
  timeoutMs?: number;
  /** The `fetch` to use (default: the global one). */
  fetch?: typeof fetch;
}

export interface AgentCallOptions {
  /** Aborts the call (the client's timeout still applies). */
  signal?: AbortSignal;
}

export interface AgentClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  /** `POST {baseUrl}/{method}` with `args` as the JSON body; resolves to the parsed response. */
  agent<T = unknown>(method: string, args?: unknown, options?: AgentCallOptions): Promise<T>;
  agentAccountId(options?: AgentCallOptions): Promise<AgentAccountIdResponse>;
  /** `get_agent` of the agent contract for the agent's own account id. Fails until the agent is registered. */
  agentInfo(options?: AgentCallOptions): Promise<AgentInfoResponse>;
  agentView<T = unknown>(args: ContractViewArgs, options?: AgentCallOptions): Promise<T>;
  agentCall<T = unknown>(args: ContractCallArgs, options?: AgentCallOptions): Promise<T>;
  requestSignature(
    args: RequestSignatureArgs<'Ecdsa'>,
    options?: AgentCallOptions,
  ): Promise<EcdsaSignatureResponse>;
  requestSignature(
    args: RequestSignatureArgs<'Eddsa'>,
    options?: AgentCallOptions,
  ): Promise<EddsaSignatureResponse>;
  requestSignature(args: RequestSignatureArgs, options?: AgentCallOptions): Promise<SignatureResponse>;
  agentBalance(options?: AgentCallOptions): Promise<AgentBalanceResponse>;
}

/**
 * `AGENT_API_URL` when set, else `http://localhost:${API_PORT ?? 3140}/api/agent` (the original client's
 * `API_PORT`).
 */
export function defaultBaseUrl(env: Record<string, string | undefined> = process.env): string {
  const url = env.AGENT_API_URL?.trim();
  if (url) return url;
  const port = env.API_PORT?.trim() || '3140';
  return `http://localhost:${port}/api/agent`;
}

export function createAgentClient(options: AgentClientOptions = {}): AgentClient {
  const baseUrl = (options.baseUrl ?? defaultBaseUrl()).replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  if (!Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new RangeError(`timeoutMs must be a positive number, got ${timeoutMs}`);
  }
  const doFetch = options.fetch ?? globalThis.fetch;

  async function agent<T = unknown>(method: string, args: unknown = {}, callOptions?: AgentCallOptions) {
    if (typeof method !== 'string' || method === '') throw new TypeError('method must be a non-empty string');
    const url = `${baseUrl}/${encodeURIComponent(method)}`;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = callOptions?.signal ? AbortSignal.any([timeout, callOptions.signal]) : timeout;
    let status: number;
    let text: string;
    try {
      const response = await doFetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(args ?? {}),
        signal,
      });
      status = response.status;
      text = await response.text();
    } catch (error) {
      if (timeout.aborted) throw new AgentApiTimeoutError(url, timeoutMs, { cause: error });
      if (callOptions?.signal?.aborted) throw error;
      throw new AgentApiUnreachableError(url, { cause: error });
    }
    const body = parseBody(text);
    if (status < 200 || status > 299) throw toApiError(status, body, text);
    if (body === NOT_JSON) {
      throw new AgentApiError({
        status,
        code: 'invalid_response',
        message: `agent API answered ${status} with a body that is not JSON: ${truncate(text)}`,
        body: text,
      });
    }
    return body as T;
  }

  async function agentAccountId(callOptions?: AgentCallOptions) {
    return agent<AgentAccountIdResponse>('getAccountId', {}, callOptions);
  }

  const client: AgentClient = {
    baseUrl,
    timeoutMs,
    agent,
    agentAccountId,
    async agentInfo(callOptions) {
      const { accountId } = await agentAccountId(callOptions);
      return agent<AgentInfoResponse>(
        'view',
        { methodName: 'get_agent', args: { account_id: accountId } },
        callOptions,
      );
    },
    agentView<T = unknown>(args: ContractViewArgs, callOptions?: AgentCallOptions) {
      return agent<T>('view', { methodName: args.methodName, args: args.args ?? {} }, callOptions);
    },
    agentCall<T = unknown>(args: ContractCallArgs, callOptions?: AgentCallOptions) {
      const body: Record<string, unknown> = { methodName: args.methodName, args: args.args ?? {} };
      if (args.gas !== undefined) body.gas = String(args.gas);
      return agent<T>('call', body, callOptions);
    },
    requestSignature(args: RequestSignatureArgs, callOptions?: AgentCallOptions): Promise<never> {
      const keyType = args.keyType ?? 'Ecdsa';
      return agent<never>(
        'call',
        {
          methodName: 'request_signature',
          args: { path: args.path, payload: payloadToHex(args.payload), key_type: keyType },
        },
        callOptions,
      );
    },
    agentBalance(callOptions) {
      return agent<AgentBalanceResponse>('getBalance', {}, callOptions);
    },
  };
  return client;
}

/** Hex of a payload: bytes → lowercase hex; a string loses an optional `0x` and is otherwise sent as is. */
export function payloadToHex(payload: string | Uint8Array): string {
  if (payload instanceof Uint8Array) return Buffer.from(payload).toString('hex');
  if (typeof payload !== 'string') throw new TypeError('payload must be a hex string or a Uint8Array');
  return payload.startsWith('0x') || payload.startsWith('0X') ? payload.slice(2) : payload;
}

const NOT_JSON = Symbol('not json');

function parseBody(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return NOT_JSON;
  }
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function toApiError(status: number, body: unknown, text: string): AgentApiError {
  const error = (body as { error?: unknown } | undefined)?.error;
  if (error && typeof error === 'object') {
    const e = error as Record<string, unknown>;
    return new AgentApiError({
      status,
      code: typeof e.code === 'string' ? e.code : `http_${status}`,
      message: typeof e.message === 'string' ? e.message : `agent API answered ${status}`,
      ...(typeof e.field === 'string' ? { field: e.field } : {}),
      ...(typeof e.stage === 'string' ? { stage: e.stage } : {}),
      body,
    });
  }
  const message =
    typeof error === 'string' ? error : text.trim() ? truncate(text.trim()) : `agent API answered ${status}`;
  return new AgentApiError({
    status,
    code: `http_${status}`,
    message,
    body: body === NOT_JSON ? text : body,
  });
}

let defaultClient: { key: string; client: AgentClient } | undefined;

/** The client the module-level functions use; rebuilt when `AGENT_API_URL`/`API_PORT` change. */
export function getDefaultClient(): AgentClient {
  const key = defaultBaseUrl();
  if (defaultClient?.key !== key) defaultClient = { key, client: createAgentClient({ baseUrl: key }) };
  return defaultClient.client;
}

/** `POST {base}/{method}` with `args` (default `{}`) on the default client. */
export function agent<T = unknown>(
  method: string,
  args: unknown = {},
  options?: AgentCallOptions,
): Promise<T> {
  return getDefaultClient().agent<T>(method, args, options);
}

export function agentAccountId(options?: AgentCallOptions): Promise<AgentAccountIdResponse> {
  return getDefaultClient().agentAccountId(options);
}

export function agentInfo(options?: AgentCallOptions): Promise<AgentInfoResponse> {
  return getDefaultClient().agentInfo(options);
}

export function agentView<T = unknown>(args: ContractViewArgs, options?: AgentCallOptions): Promise<T> {
  return getDefaultClient().agentView<T>(args, options);
}

export function agentCall<T = unknown>(args: ContractCallArgs, options?: AgentCallOptions): Promise<T> {
  return getDefaultClient().agentCall<T>(args, options);
}

export function requestSignature(
  args: RequestSignatureArgs<'Ecdsa'>,
  options?: AgentCallOptions,
): Promise<EcdsaSignatureResponse>;
export function requestSignature(
  args: RequestSignatureArgs<'Eddsa'>,
  options?: AgentCallOptions,
): Promise<EddsaSignatureResponse>;
export function requestSignature(
  args: RequestSignatureArgs,
  options?: AgentCallOptions,
): Promise<SignatureResponse>;
export function requestSignature(args: RequestSignatureArgs, options?: AgentCallOptions) {
  return getDefaultClient().requestSignature(args, options);
}

export function agentBalance(options?: AgentCallOptions): Promise<AgentBalanceResponse> {
  return getDefaultClient().agentBalance(options);
}
