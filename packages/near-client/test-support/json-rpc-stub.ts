/**
 * Test support: a tiny local HTTP server answering JSON-RPC requests with whatever the test says (a result,
 * an error object, a raw HTTP answer, or nothing for a while), counting the requests it received.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface StubRequest {
  method: string;
  params: unknown;
  id: unknown;
}

/** What the stub answers: a JSON-RPC result or error, a raw HTTP answer, or a delay first. */
export type StubAnswer =
  | { result: unknown }
  | { error: unknown }
  | { status: number; body: string; contentType?: string; headers?: Record<string, string> }
  | { delayMs: number; answer: StubAnswer };

export interface JsonRpcStub {
  url: string;
  requests: StubRequest[];
  close(): Promise<void>;
}

export async function startJsonRpcStub(answer: (request: StubRequest) => StubAnswer): Promise<JsonRpcStub> {
  const requests: StubRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      const request = { method: body.method, params: body.params, id: body.id };
      requests.push(request);
      const write = (a: StubAnswer): void => {
        if ('delayMs' in a) {
          setTimeout(() => !res.destroyed && write(a.answer), a.delayMs).unref();
          return;
        }
        if ('status' in a) {
          res.writeHead(a.status, { 'content-type': a.contentType ?? 'text/plain', ...a.headers });
          res.end(a.body);
          return;
        }
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id, ...a }));
      };
      write(answer(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback address nothing listens on (a server started and closed at once). */
export async function closedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
