/**
 * Test support: a fault-injecting HTTP proxy in front of a JSON-RPC endpoint (a Shadebox node), listening on
 * 127.0.0.1 only. Each request gets the fault the test's plan picks: passed through, delayed, lost before it
 * reaches the node or after (the node executed it, the client never hears), a TCP reset, an answer cut in the
 * middle, or an HTTP 429 / 5xx (with `Retry-After` when asked) instead of the node's answer. `down()` stops
 * listening (a provider that is down: connection refused) and `up()` listens again on the same port.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { base64Decode, decodeSignedTransaction } from '@shadebox/primitives';

export type Fault =
  | { kind: 'pass' }
  /** Waits, then passes the request on (a delay beyond the client's timeout: the request arrives late). */
  | { kind: 'delay'; ms: number }
  /** The connection is closed before the request reaches the node. */
  | { kind: 'drop-request' }
  /** The node gets the request and answers; the connection is closed instead of the answer. */
  | { kind: 'drop-response' }
  /** A TCP reset, before the node gets the request or after it answered. */
  | { kind: 'reset'; forwarded: boolean }
  /** The node answers; half the answer is written (with the full Content-Length), then the connection closes. */
  | { kind: 'truncate' }
  /**
   * send_tx only (else a pass): the node executes the transaction, and the answer is the `InvalidNonce` that a
   * second node gives the same transaction sent again once its nonce is used (a provider whose load balancer
   * sent a retry elsewhere, or a lagging node that has the block but not the transaction's status).
   */
  | { kind: 'nonce-used' }
  /**
   * send_tx only (else a pass): a refusal (`INVALID_TRANSACTION` with this `InvalidTxError`, e.g.
   * `{NotEnoughBalance: …}`) without the node getting the request: what a second node with another view of
   * the chain may answer.
   */
  | { kind: 'refused'; invalidTx: unknown }
  /** This HTTP status instead of the node's answer, before or after the node got the request. */
  | { kind: 'status'; status: number; retryAfter?: string; forwarded?: boolean };

export interface ProxiedRequest {
  /** The JSON-RPC method. */
  method: string;
  /** The request's body. */
  body: string;
  /** 1 for the first request the proxy received. */
  n: number;
}

export type FaultPlan = (request: ProxiedRequest) => Fault;

export interface FaultProxy {
  url: string;
  /** Every request received: its method and the fault it got. */
  log: Array<{ method: string; fault: Fault['kind'] }>;
  /** Replaces the plan (default: every request passes). */
  setPlan(plan: FaultPlan): void;
  /** Stops listening and cuts every connection: the provider is down (connection refused). */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

export const PASS: FaultPlan = () => ({ kind: 'pass' });

export async function startFaultProxy(upstream: string, plan: FaultPlan = PASS): Promise<FaultProxy> {
  let current = plan;
  let n = 0;
  let closed = false;
  const log: FaultProxy['log'] = [];
  const sockets = new Set<Socket>();

  const forward = async (body: string): Promise<{ status: number; text: string }> => {
    const r = await fetch(upstream, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
    });
    return { status: r.status, text: await r.text() };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    let method = '?';
    try {
      method = String(JSON.parse(body).method);
    } catch {}
    const fault = current({ method, body, n: ++n });
    log.push({ method, fault: fault.kind });
    const socket = req.socket;
    switch (fault.kind) {
      case 'drop-request':
        socket.destroy();
        return;
      case 'reset':
        if (fault.forwarded) await forward(body);
        socket.resetAndDestroy();
        return;
      case 'status': {
        if (fault.forwarded) await forward(body);
        const headers: Record<string, string> = { 'content-type': 'text/plain' };
        if (fault.retryAfter !== undefined) headers['retry-after'] = fault.retryAfter;
        res.writeHead(fault.status, headers).end(`fault proxy: HTTP ${fault.status}`);
        return;
      }
      case 'refused':
        if (method !== 'send_tx') break;
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, error: refusal(fault.invalidTx) }));
        return;
      case 'delay':
        await new Promise((r) => setTimeout(r, fault.ms));
        if (closed) return;
        break;
    }
    const answer = await forward(body);
    if (fault.kind === 'nonce-used' && method === 'send_tx') {
      const json = JSON.stringify({ jsonrpc: '2.0', id: JSON.parse(body).id, error: invalidNonce(body) });
      res.writeHead(200, { 'content-type': 'application/json' }).end(json);
      return;
    }
    if (fault.kind === 'drop-response') {
      socket.destroy();
      return;
    }
    const bytes = Buffer.from(answer.text);
    res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': bytes.length });
    if (fault.kind === 'truncate') {
      res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => socket.destroy());
      return;
    }
    res.end(bytes);
  };

  const server: Server = createServer((req, res) => {
    handle(req, res).catch(() => req.socket.destroy());
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;

  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (!server.listening) return resolve();
      server.close(() => resolve());
    });
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    setPlan(p) {
      current = p;
    },
    down: stop,
    up: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          server.off('error', reject);
          resolve();
        });
      }),
    async close() {
      closed = true;
      await stop();
    },
  };
}

/** nearcore's JSON-RPC error for a transaction whose nonce the access key has reached. */
function invalidNonce(body: string): unknown {
  const signed = decodeSignedTransaction(base64Decode(JSON.parse(body).params.signed_tx_base64));
  const nonce = Number(signed.signedTransaction.transaction.nonce);
  return refusal({ InvalidNonce: { ak_nonce: nonce, tx_nonce: nonce } });
}

/** nearcore's JSON-RPC error for a refused transaction. */
function refusal(invalid: unknown): unknown {
  return {
    name: 'HANDLER_ERROR',
    cause: { name: 'INVALID_TRANSACTION', info: invalid },
    code: -32000,
    message: 'Server error',
    data: { TxExecutionError: { InvalidTxError: invalid } },
  };
}

/** A reproducible stream of numbers in [0, 1) from `seed` (mulberry32). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A plan giving each request, with probability `rate`, one of `faults` (picked evenly), from `seed`. */
export function randomFaults(seed: number, rate: number, faults: Fault[]): FaultPlan {
  const random = seededRandom(seed);
  return () => (random() < rate ? faults[Math.floor(random() * faults.length)] : { kind: 'pass' });
}
