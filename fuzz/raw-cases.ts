/**
 * Raw bytes on the sockets of both fast paths: a request split at a byte boundary, requests pipelined on one
 * connection (fast-path ones and relayed ones mixed), truncated requests, a slow client writing a byte per
 * tick, oversized headers, bad chunked encoding, smuggling-shaped headers, garbage, and connections reset
 * mid-request. Answers are read off the socket and parsed by hand.
 */
import { connect, type Socket } from 'node:net';
import type { Random } from './random.js';
import type { Answer } from './shapes.js';

export interface RawCase {
  surface: 'rpc' | 'agent';
  label: string;
  /** The bytes, in the writes they are sent in. */
  writes: Buffer[];
  /** Pause between writes, ms (0: the next turn of the event loop). */
  pauseMs: number;
  /** After the last write: wait for the answers, end our side, or reset the connection. */
  afterWrites: 'wait' | 'end' | 'reset';
  /** How many answers must come back (every request complete and well-formed); undefined: any number. */
  answers?: number;
  /** Statuses allowed for the answers of malformed requests (node:http's own refusals). */
  allowStatus?: readonly number[];
  describe: string;
}

export interface RawTarget {
  port: number;
  /** A POST the fast path answers (e.g. `status` for the RPC, `getAccountId` for the agent API). */
  fastRequest(r: Random): Buffer;
  /** A request node:http answers (a GET). */
  relayedRequest(r: Random): Buffer;
}

const CRLF = '\r\n';

export function rpcTarget(port: number): RawTarget {
  return {
    port,
    fastRequest: (r) => {
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: r.int(1000),
        method: r.pick(['status', 'health', 'gas_price', 'block']),
        params: r.pick([[null], { finality: 'final' }]),
      });
      return Buffer.from(
        `POST / HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Content-Type: application/json${CRLF}Content-Length: ${Buffer.byteLength(body)}${CRLF}${CRLF}${body}`,
      );
    },
    relayedRequest: (r) =>
      Buffer.from(
        `GET ${r.pick(['/status', '/health', '/network_info', '/metrics', '/nope'])} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${CRLF}`,
      ),
  };
}

export function agentTarget(port: number): RawTarget {
  return {
    port,
    fastRequest: (r) => {
      const body = r.pick(['{}', '', '{"methodName":"get_owner"}']);
      const path = body.includes('methodName')
        ? '/api/agent/view'
        : r.pick(['/api/agent/getAccountId', '/api/agent/getBalance']);
      return Buffer.from(
        `POST ${path} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}Content-Length: ${Buffer.byteLength(body)}${CRLF}${CRLF}${body}`,
      );
    },
    relayedRequest: (r) =>
      Buffer.from(
        `GET ${r.pick(['/api/agent/health', '/api/agent/openapi.json', '/api/agent/nope'])} HTTP/1.1${CRLF}Host: 127.0.0.1${CRLF}${CRLF}`,
      ),
  };
}

/** Every status node:http answers a malformed request with (400; 431 for large headers; 413, 408). */
const REFUSALS = [400, 408, 413, 431, 501, 505];

export function rawCase(r: Random, surface: 'rpc' | 'agent', target: RawTarget, index: number): RawCase {
  const kind = r.weighted<string>([
    [20, 'split'],
    [15, 'pipelined'],
    [10, 'truncated'],
    [2, 'slow'],
    [5, 'oversized-header'],
    [6, 'bad-chunked'],
    [6, 'smuggling'],
    [6, 'garbage'],
    [8, 'reset'],
    [6, 'chunked-valid'],
  ]);
  const label = `raw:${surface}:${kind}`;
  const fast = target.fastRequest(r);
  switch (kind) {
    case 'split': {
      // Over the run, every byte boundary of the request is used: the case index picks it.
      const at = 1 + (index % (fast.length - 1));
      return {
        surface,
        label,
        writes: [fast.subarray(0, at), fast.subarray(at)],
        pauseMs: r.pick([0, 1, 5]),
        afterWrites: 'wait',
        answers: 1,
        describe: `split at byte ${at} of ${JSON.stringify(fast.toString('latin1'))}`,
      };
    }
    case 'pipelined': {
      const reqs = Array.from({ length: r.range(2, 8) }, () =>
        r.chance(0.7) ? target.fastRequest(r) : target.relayedRequest(r),
      );
      const all = Buffer.concat(reqs);
      const cuts = r.chance(0.5) ? [all] : splitRandom(r, all, r.range(2, 6));
      return {
        surface,
        label,
        writes: cuts,
        pauseMs: r.pick([0, 1]),
        afterWrites: r.chance(0.3) ? 'end' : 'wait',
        answers: reqs.length,
        describe: `${reqs.length} pipelined${cuts.length > 1 ? ` in ${cuts.length} writes` : ''}: ${JSON.stringify(all.toString('latin1')).slice(0, 800)}`,
      };
    }
    case 'truncated': {
      const at = r.int(fast.length);
      return {
        surface,
        label,
        writes: [fast.subarray(0, at)],
        pauseMs: 0,
        afterWrites: 'end',
        answers: undefined,
        allowStatus: REFUSALS,
        describe: `truncated at ${at}: ${JSON.stringify(fast.subarray(0, at).toString('latin1'))}`,
      };
    }
    case 'slow': {
      const bytes = [...fast].map((b) => Buffer.from([b]));
      return {
        surface,
        label,
        writes: bytes,
        pauseMs: 1,
        afterWrites: 'wait',
        answers: 1,
        describe: `a byte per tick: ${JSON.stringify(fast.toString('latin1'))}`,
      };
    }
    case 'oversized-header': {
      const size = r.pick([7000, 9000, 15_000, 17_000, 70_000]);
      const text = fast.toString('latin1').replace(CRLF, `${CRLF}X-Big: ${'h'.repeat(size)}${CRLF}`);
      return {
        surface,
        label,
        writes: [Buffer.from(text, 'latin1')],
        pauseMs: 0,
        afterWrites: 'wait',
        answers: 1,
        allowStatus: [431],
        describe: `header of ${size} bytes`,
      };
    }
    case 'chunked-valid': {
      const [head, body] = splitHead(fast);
      const noLength = head.replace(/\r\nContent-Length: \d+/i, '\r\nTransfer-Encoding: chunked');
      const chunks = splitRandom(r, Buffer.from(body, 'latin1'), r.range(1, 4))
        .filter((c) => c.length > 0)
        .map((c) => `${c.length.toString(16)}\r\n${c.toString('latin1')}\r\n`);
      const text = `${noLength}\r\n\r\n${chunks.join('')}0\r\n\r\n`;
      return {
        surface,
        label,
        writes: [Buffer.from(text, 'latin1')],
        pauseMs: 0,
        afterWrites: 'wait',
        answers: 1,
        describe: JSON.stringify(text),
      };
    }
    case 'bad-chunked': {
      const [head] = splitHead(fast);
      const noLength = head.replace(/\r\nContent-Length: \d+/i, '\r\nTransfer-Encoding: chunked');
      const bad = r.pick([
        'zz\r\nabc\r\n0\r\n\r\n',
        '5\r\nabc\r\n0\r\n\r\n',
        'ffffffffffffffffff\r\nx\r\n',
        '-1\r\n\r\n',
        '3\r\nabcde\r\n0\r\n\r\n',
        '3;ext=\u0001\r\nabc\r\n0\r\n\r\n',
        '3\nabc\n0\n\n',
      ]);
      const text = `${noLength}\r\n\r\n${bad}`;
      return {
        surface,
        label,
        writes: [Buffer.from(text, 'latin1')],
        pauseMs: 0,
        afterWrites: 'end',
        answers: undefined,
        allowStatus: REFUSALS,
        describe: JSON.stringify(text),
      };
    }
    case 'smuggling': {
      const [head, body] = splitHead(fast);
      const variant = r.int(6);
      let text: string;
      if (variant === 0) text = `${head}\r\nContent-Length: ${body.length + 5}\r\n\r\n${body}`;
      else if (variant === 1) text = `${head}\r\nTransfer-Encoding: chunked\r\n\r\n${body}`;
      else if (variant === 2) text = `${head.replace('HTTP/1.1', 'HTTP/1.0')}\r\n\r\n${body}`;
      else if (variant === 3) text = `${head.replace(/\r\n/g, '\n')}\n\n${body}`;
      else if (variant === 4)
        text = `${head.replace('Host: 127.0.0.1', 'Host: a\r\nHost: b')}\r\n\r\n${body}`;
      else text = `${head.replace(/Content-Length: (\d+)/i, 'Content-Length: +$1')}\r\n\r\n${body}`;
      return {
        surface,
        label,
        writes: [Buffer.from(text, 'latin1')],
        pauseMs: 0,
        afterWrites: 'end',
        answers: undefined,
        allowStatus: REFUSALS,
        describe: JSON.stringify(text),
      };
    }
    case 'garbage': {
      const g = r.chance(0.5)
        ? r.bytes(r.range(1, 2000))
        : Buffer.from(
            r.pick([
              'GET\r\n\r\n',
              'POST / HTTP/9.9\r\n\r\n',
              '\r\n\r\n\r\n',
              'PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n',
              'post / http/1.1\r\nHost: a\r\n\r\n',
            ]),
          );
      return {
        surface,
        label,
        writes: [g],
        pauseMs: 0,
        afterWrites: 'end',
        answers: undefined,
        allowStatus: REFUSALS,
        describe: JSON.stringify(g.toString('latin1')).slice(0, 500),
      };
    }
    default: {
      // reset: part or all of a request, then a TCP reset.
      const at = r.range(1, fast.length);
      return {
        surface,
        label,
        writes: [fast.subarray(0, at)],
        pauseMs: 0,
        afterWrites: 'reset',
        answers: undefined,
        describe: `reset after ${at} bytes`,
      };
    }
  }
}

function splitHead(req: Buffer): [string, string] {
  const text = req.toString('latin1');
  const i = text.indexOf('\r\n\r\n');
  return [text.slice(0, i), text.slice(i + 4)];
}

function splitRandom(r: Random, b: Buffer, parts: number): Buffer[] {
  const cuts = [...new Set(Array.from({ length: parts - 1 }, () => r.int(b.length)))].sort((x, y) => x - y);
  const out: Buffer[] = [];
  let prev = 0;
  for (const c of [...cuts, b.length]) {
    if (c > prev) out.push(b.subarray(prev, c));
    prev = c;
  }
  return out.length ? out : [b];
}

export interface RawResult {
  answers: Answer[];
  /** The bytes after the last complete answer (a cut-off answer), if any. */
  leftover: number;
  closed: boolean;
  error?: string;
  /** Whether the TCP connection was established, and the bytes written and read. */
  connected: boolean;
  written: number;
  read: number;
}

/** Sends the case's bytes and reads the answers until the expected count, a close, or `timeoutMs`. */
export function runRawCase(port: number, c: RawCase, timeoutMs: number): Promise<RawResult> {
  return new Promise((resolve) => {
    const socket: Socket = connect({ host: '127.0.0.1', port, noDelay: true });
    let buf = Buffer.alloc(0);
    const answers: Answer[] = [];
    let done = false;
    let error: string | undefined;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({
        answers,
        leftover: buf.length,
        closed,
        error,
        connected,
        written: socket.bytesWritten,
        read: socket.bytesRead,
      });
    };
    // On a busy machine this process may be late to read what arrived: the data already in the socket is read
    // (the poll phase runs before setImmediate's) before the case is called timed out, and any data restarts
    // the wait.
    let timer = setTimeout(() => setImmediate(() => finish(false)), timeoutMs);
    const progressed = () => {
      clearTimeout(timer);
      timer = setTimeout(() => setImmediate(() => finish(false)), timeoutMs);
    };
    socket.on('data', (chunk: Buffer) => {
      progressed();
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        const parsed = parseAnswer(buf, false);
        if (!parsed) break;
        answers.push(parsed.answer);
        buf = buf.subarray(parsed.end);
      }
      if (c.answers !== undefined && answers.length >= c.answers && c.afterWrites === 'wait') finish(false);
    });
    socket.on('end', () => {
      // An answer without a length ends with the connection.
      const parsed = buf.length ? parseAnswer(buf, true) : undefined;
      if (parsed) {
        answers.push(parsed.answer);
        buf = buf.subarray(parsed.end);
      }
      finish(true);
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
      finish(true);
    });
    let connected = false;
    socket.on('connect', async () => {
      connected = true;
      for (let i = 0; i < c.writes.length; i++) {
        if (done) return;
        socket.write(c.writes[i]);
        if (i < c.writes.length - 1) await pause(c.pauseMs);
      }
      if (c.afterWrites === 'end') socket.end();
      else if (c.afterWrites === 'reset') {
        await pause(0);
        if (!done) {
          socket.resetAndDestroy();
          finish(true);
        }
      }
    });
  });
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => (ms === 0 ? setImmediate(resolve) : setTimeout(resolve, ms)));
}

/** One HTTP/1.1 answer at the start of `buf` (Content-Length, chunked, or up to the close when `atEnd`). */
export function parseAnswer(buf: Buffer, atEnd: boolean): { answer: Answer; end: number } | undefined {
  const headEnd = buf.indexOf('\r\n\r\n');
  if (headEnd < 0) return undefined;
  const head = buf.toString('latin1', 0, headEnd);
  const m = /^HTTP\/1\.1 (\d{3})/.exec(head);
  const status = m ? Number(m[1]) : 0;
  const contentType = /\r\ncontent-type:\s*([^\r\n]*)/i.exec(head)?.[1] ?? '';
  const start = headEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = start + Number(length[1]);
    return buf.length >= end
      ? { answer: { status, contentType, body: buf.subarray(start, end) }, end }
      : undefined;
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const parts: Buffer[] = [];
    let at = start;
    for (;;) {
      const lineEnd = buf.indexOf('\r\n', at);
      if (lineEnd < 0) return undefined;
      const size = Number.parseInt(buf.toString('latin1', at, lineEnd), 16);
      if (!Number.isFinite(size)) return undefined;
      if (size === 0) {
        const end = buf.indexOf('\r\n\r\n', lineEnd - 2);
        return end < 0
          ? undefined
          : { answer: { status, contentType, body: Buffer.concat(parts) }, end: end + 4 };
      }
      if (buf.length < lineEnd + 2 + size + 2) return undefined;
      parts.push(buf.subarray(lineEnd + 2, lineEnd + 2 + size));
      at = lineEnd + 2 + size + 2;
    }
  }
  // No body (204, 304, or an answer that ends the connection).
  if (status === 204 || status === 304 || /\r\nconnection:\s*close/i.test(head) === false || atEnd) {
    return {
      answer: { status, contentType, body: atEnd ? buf.subarray(start) : Buffer.alloc(0) },
      end: atEnd ? buf.length : start,
    };
  }
  return undefined;
}
