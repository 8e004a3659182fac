/**
 * A minimal HTTP/1.1 keep-alive client on raw TCP sockets, for the read benchmark: each connection writes one
 * prepared POST and reads exactly one response (status line, headers, `Content-Length` body) before the next.
 * It does a fraction of the work of a general client, so the generator's own CPU cost does not cap the rate
 * it can measure on a 2-core machine. Bodies come with a `Content-Length` or chunked (no trailers).
 */
import { connect, type Socket } from 'node:net';

export interface RawResponse {
  status: number;
  body: Buffer;
}

const HEADER_END = Buffer.from('\r\n\r\n');

class RawConnection {
  private socket: Socket | undefined;
  private buffered: Buffer = Buffer.alloc(0);
  private pending: { resolve: (r: RawResponse) => void; reject: (e: Error) => void } | undefined;

  constructor(
    private readonly host: string,
    private readonly port: number,
  ) {}

  private open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: this.host, port: this.port, noDelay: true });
      socket.once('connect', () => {
        socket.off('error', reject);
        socket.on('error', (error) => this.fail(error));
        socket.on('close', () => {
          this.socket = undefined;
          this.fail(new Error('connection closed'));
        });
        socket.on('data', (chunk: Buffer) => this.onData(chunk));
        resolve(socket);
      });
      socket.once('error', reject);
    });
  }

  private fail(error: Error): void {
    const pending = this.pending;
    this.pending = undefined;
    this.buffered = Buffer.alloc(0);
    pending?.reject(error);
  }

  private onData(chunk: Buffer): void {
    this.buffered = this.buffered.length === 0 ? chunk : Buffer.concat([this.buffered, chunk]);
    const headerEnd = this.buffered.indexOf(HEADER_END);
    if (headerEnd < 0) return;
    const head = this.buffered.toString('latin1', 0, headerEnd);
    const bodyStart = headerEnd + HEADER_END.length;
    let parsed: { body: Buffer; end: number } | undefined;
    const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
    if (length) {
      const end = bodyStart + Number(length[1]);
      if (this.buffered.length >= end) parsed = { body: this.buffered.subarray(bodyStart, end), end };
    } else if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
      try {
        parsed = readChunked(this.buffered, bodyStart);
      } catch (error) {
        this.socket?.destroy();
        this.fail(error as Error);
        return;
      }
    } else {
      this.socket?.destroy();
      this.fail(new Error(`response without a length: ${head.slice(0, 200)}`));
      return;
    }
    if (!parsed) return;
    const { body, end: bodyEnd } = parsed;
    const status = Number(head.slice(9, 12));
    this.buffered = this.buffered.subarray(bodyEnd);
    const pending = this.pending;
    this.pending = undefined;
    pending?.resolve({ status, body });
  }

  async request(bytes: Buffer): Promise<RawResponse> {
    this.socket ??= await this.open();
    if (this.pending) throw new Error('one request at a time per connection');
    return new Promise((resolve, reject) => {
      this.pending = { resolve, reject };
      this.socket!.write(bytes);
    });
  }

  close(): void {
    this.socket?.destroy();
    this.socket = undefined;
  }
}

/** `connections` keep-alive connections to `url`; connection i serves worker i. */
export class RawHttpClients {
  private readonly connections: RawConnection[];
  readonly host: string;
  readonly port: number;

  constructor(url: string, connections: number) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port || 80);
    this.connections = Array.from({ length: connections }, () => new RawConnection(this.host, this.port));
  }

  /** The bytes of `POST / HTTP/1.1` with a JSON body, prepared once and sent as is. */
  jsonPost(body: string): Buffer {
    return this.post('/', body, 'application/json');
  }

  /**
   * The bytes of `POST <path> HTTP/1.1` with `body` (no Content-Type header when `contentType` is undefined;
   * an empty body is sent as `Content-Length: 0`).
   */
  post(path: string, body: string, contentType?: string): Buffer {
    const payload = Buffer.from(body);
    const head =
      `POST ${path} HTTP/1.1\r\nHost: ${this.host}:${this.port}\r\n` +
      (contentType === undefined ? '' : `Content-Type: ${contentType}\r\n`) +
      `Content-Length: ${payload.length}\r\nConnection: keep-alive\r\n\r\n`;
    return Buffer.concat([Buffer.from(head, 'latin1'), payload]);
  }

  request(connection: number, bytes: Buffer): Promise<RawResponse> {
    return this.connections[connection].request(bytes);
  }

  close(): void {
    for (const c of this.connections) c.close();
  }
}

/** A whole chunked body starting at `start` (chunks, then `0\r\n\r\n`), or undefined while incomplete. */
function readChunked(buf: Buffer, start: number): { body: Buffer; end: number } | undefined {
  const parts: Buffer[] = [];
  let at = start;
  for (;;) {
    const lineEnd = buf.indexOf('\r\n', at, 'latin1');
    if (lineEnd < 0) return undefined;
    const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
    if (!Number.isFinite(size)) throw new Error('bad chunk size');
    const dataStart = lineEnd + 2;
    if (size === 0) {
      if (buf.length < dataStart + 2) return undefined;
      return { body: parts.length === 1 ? parts[0] : Buffer.concat(parts), end: dataStart + 2 };
    }
    if (buf.length < dataStart + size + 2) return undefined;
    parts.push(buf.subarray(dataStart, dataStart + size));
    at = dataStart + size + 2;
  }
}
