/**
 * The page's JSON-RPC client: the same `POST /` every NEAR client uses, on the origin that served the page.
 * An error answer becomes an `RpcCallError` whose message is nearcore's cause (name and info) when it has one.
 */

import type { Json } from './json.js';
export class RpcCallError extends Error {
  constructor(
    message: string,
    readonly causeName: string | undefined,
    readonly data: unknown,
  ) {
    super(message);
  }
}

let nextId = 1;

export async function rpc<T = Json>(method: string, params: unknown): Promise<T> {
  const response = await fetch('/', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
  });
  const answer = await response.json();
  if (answer.error) {
    const e = answer.error;
    const causeName: string | undefined = e.cause?.name;
    const text =
      typeof e.data === 'string' ? e.data : e.cause?.info ? JSON.stringify(e.cause.info) : e.message;
    throw new RpcCallError(causeName ? `${causeName}: ${text}` : String(text), causeName, e.data);
  }
  return answer.result as T;
}

const encoder = new TextEncoder();

export function base64OfText(text: string): string {
  return bytesToBase64(encoder.encode(text));
}

export function bytesToBase64(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s);
}

export function base64ToBytes(text: string): Uint8Array {
  const s = atob(text);
  const out = new Uint8Array(s.length);
  for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
  return out;
}

/** A contract view (`query call_function`) whose result is JSON. */
export async function viewJson<T = Json>(contract: string, method: string, args: unknown = {}): Promise<T> {
  const result = await rpc<{ result: number[] }>('query', {
    request_type: 'call_function',
    finality: 'optimistic',
    account_id: contract,
    method_name: method,
    args_base64: base64OfText(JSON.stringify(args)),
  });
  return JSON.parse(new TextDecoder().decode(Uint8Array.from(result.result)));
}

export function query<T = Json>(request: Record<string, unknown>): Promise<T> {
  return rpc<T>('query', { finality: 'optimistic', ...request });
}
