/**
 * The small HTTP/1.1 request parser of the fast path. It recognises one shape only — a `POST` to a path the
 * server answers itself, with `Host`, one `Content-Length` and a body of at most 1 MiB — and says 'other' for
 * everything it does not fully understand, which then goes to `node:http`.
 */
import { isUtf8 } from 'node:buffer';

/** Requests larger than this (head or body) go to `node:http`, which enforces the real limits. */
export const MAX_HEAD_BYTES = 8 * 1024;
export const MAX_BODY_BYTES = 1024 * 1024;

/** Which requests a server answers on its fast path. */
export interface SimpleRequestRule {
  /** Whether `POST <path>` (query and all, exactly as sent) is answered here. */
  acceptsPath(path: string): boolean;
  /** 'json': only `application/json` (with parameters) is simple; 'any': any Content-Type, or none. */
  contentType: 'json' | 'any';
  /** The server's own body limit when it is below MAX_BODY_BYTES: larger bodies go to `node:http`, which
   * refuses them (e.g. the RPC's `rpc.limits_config.json_payload_max_size`). */
  maxBodyBytes?: number;
}

export interface SimpleRequest {
  path: string;
  body: string;
  /** Bytes after this request (the next pipelined request, if any). */
  rest: Buffer;
  /** Whether the request carried an `Origin` header. */
  origin: boolean;
  keepAlive: boolean;
}

const HEAD_END = Buffer.from('\r\n\r\n');
const REQUEST_LINE = /^POST (\/[!-~]*) HTTP\/1\.1$/;

/** A complete simple request at the start of `buf`, 'incomplete' to wait for more bytes, or 'other'. */
export function parseSimpleRequest(
  buf: Buffer,
  rule: SimpleRequestRule,
): SimpleRequest | 'incomplete' | 'other' {
  const headEnd = buf.indexOf(HEAD_END);
  if (headEnd < 0) {
    // A bare LF anywhere (not part of CRLF) is not this parser's business: node:http answers it.
    for (let i = buf.indexOf(10); i >= 0; i = buf.indexOf(10, i + 1))
      if (i === 0 || buf[i - 1] !== 13) return 'other';
    return buf.length > MAX_HEAD_BYTES ? 'other' : 'incomplete';
  }
  if (headEnd > MAX_HEAD_BYTES) return 'other';
  const head = buf.toString('latin1', 0, headEnd);
  const lines = head.split('\r\n');
  const requestLine = REQUEST_LINE.exec(lines[0]);
  if (!requestLine || !rule.acceptsPath(requestLine[1])) return 'other';
  let length = -1;
  let contentType = false;
  let origin = false;
  let keepAlive = true;
  let host = false;
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i];
    const colon = line.indexOf(':');
    if (colon <= 0) return 'other';
    const name = line.slice(0, colon).toLowerCase();
    const value = line.slice(colon + 1).trim();
    switch (name) {
      case 'content-length':
        if (length >= 0 || !/^\d{1,7}$/.test(value)) return 'other';
        length = Number(value);
        break;
      case 'content-type':
        if (contentType) return 'other';
        contentType = true;
        if (rule.contentType === 'json' && value.toLowerCase().split(';')[0].trim() !== 'application/json')
          return 'other';
        break;
      case 'host':
        host = true;
        break;
      case 'origin':
        origin = true;
        break;
      case 'connection': {
        const v = value.toLowerCase();
        if (v === 'close') keepAlive = false;
        else if (v !== 'keep-alive') return 'other';
        break;
      }
      case 'transfer-encoding':
      case 'expect':
      case 'upgrade':
        return 'other';
      default:
        if (name.includes(' ') || name.includes('\t')) return 'other';
    }
  }
  if (length < 0 || !host || length > Math.min(MAX_BODY_BYTES, rule.maxBodyBytes ?? MAX_BODY_BYTES)) {
    return 'other';
  }
  if (rule.contentType === 'json' && !contentType) return 'other';
  const bodyStart = headEnd + 4;
  if (buf.length < bodyStart + length) return 'incomplete';
  // A body that is not UTF-8 is node:http's, whose server decides (the RPC refuses it, as serde_json does).
  if (!isUtf8(buf.subarray(bodyStart, bodyStart + length))) return 'other';
  return {
    path: requestLine[1],
    body: buf.toString('utf8', bodyStart, bodyStart + length),
    rest: buf.subarray(bodyStart + length),
    origin,
    keepAlive,
  };
}
