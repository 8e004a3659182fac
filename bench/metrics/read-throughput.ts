/**
 * Metric 1: read requests per second at a fixed concurrency over HTTP keep-alive.
 * Shadebox: `query { request_type: view_account, finality: final }`; anvil: `eth_getBalance(addr, latest)`.
 * Every answer is parsed and must carry a `result`, so an error page cannot inflate the rate. The requests go
 * through raw keep-alive sockets (raw-http.ts): a general HTTP client would cost the generator more CPU per
 * request than the servers spend answering it.
 */
import { type LoadResult, runClosedLoop } from '../load.js';
import { RawHttpClients } from '../raw-http.js';
import { serverProbes } from './cpu.js';

export interface ReadThroughputOptions {
  concurrency: number;
  warmupMs: number;
  durationMs: number;
  /**
   * Checks each answer's `result` further (`index`: which of the bodies it answers); throws to count the
   * request as an error.
   */
  validate?: (result: unknown, index: number) => void;
}

/**
 * Drives `body` (a prepared JSON-RPC request) at `url` and counts well-formed results. Given several bodies,
 * the workers take them in turn, in the order given (one shared counter), so a request repeats only after all
 * the others were sent.
 */
export async function measureReadThroughput(
  url: string,
  pid: number,
  body: string | readonly string[],
  options: ReadThroughputOptions,
): Promise<LoadResult> {
  const clients = new RawHttpClients(url, options.concurrency);
  const requests = (typeof body === 'string' ? [body] : body).map((b) => clients.jsonPost(b));
  let next = 0;
  try {
    return await runClosedLoop({
      concurrency: options.concurrency,
      warmupMs: options.warmupMs,
      durationMs: options.durationMs,
      drainTimeoutMs: 5000,
      probes: serverProbes(pid),
      operation: async (worker) => {
        const index = next;
        const request = requests[index];
        next = (next + 1) % requests.length;
        const { status, body } = await clients.request(worker, request);
        const message = JSON.parse(body.toString('utf8')) as { result?: unknown; error?: unknown };
        if (status !== 200 || message.result === undefined) {
          throw new Error(`HTTP ${status}: ${JSON.stringify(message.error ?? message).slice(0, 200)}`);
        }
        options.validate?.(message.result, index);
      },
    });
  } finally {
    clients.close();
  }
}

export function viewAccountBody(accountId: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 'bench',
    method: 'query',
    params: { request_type: 'view_account', finality: 'final', account_id: accountId },
  });
}

export function getBalanceBody(address: string): string {
  return JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_getBalance', params: [address, 'latest'] });
}
