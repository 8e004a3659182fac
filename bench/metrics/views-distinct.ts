/**
 * Distinct view requests over a fixed set of keys, for the real-contract views (`ft`, `hello`): the node keeps
 * the answers of requests repeated at the same head (packages/node/src/rpc/read-cache.ts, 4,096 entries), so
 * 1,000 keys cycled would soon be answered from there, not by the contract. Request n names key n mod 1,000
 * and puts n div 1,000 spaces after the argument's colon (JSON whitespace, the same arguments to any JSON
 * parser): 32,000 distinct bodies, each repeated only after all the others. On anvil the JSON-RPC id differs.
 */
export const KEYS = 1000;
export const SPACINGS = 32;
export const DISTINCT = KEYS * SPACINGS;

/** `{"<name>":<spaces>"<value>"}` with `spacing` spaces. */
export function jsonArg(name: string, value: string, spacing: number): string {
  return `{"${name}":${' '.repeat(spacing)}"${value}"}`;
}

/** The body of a NEAR `call_function` view at `final` with `args` (JSON text). */
export function callFunctionBody(accountId: string, method: string, args: string, id: number): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id,
    method: 'query',
    params: {
      request_type: 'call_function',
      finality: 'final',
      account_id: accountId,
      method_name: method,
      args_base64: Buffer.from(args).toString('base64'),
    },
  });
}

/** Throws unless a `call_function` result's bytes are exactly `expected`. */
export function checkBytes(result: unknown, expected: Buffer, what: string): void {
  const bytes = (result as { result?: unknown }).result;
  if (!Array.isArray(bytes) || bytes.length !== expected.length || bytes.some((b, i) => b !== expected[i])) {
    throw new Error(`${what} answered ${JSON.stringify(result).slice(0, 200)}`);
  }
}
