/** Request bodies: at most `limit` bytes (the fast path's own limit, so both paths agree), JSON (any Content-Type or none), nesting at most `maxDepth`. */
import type { IncomingMessage } from 'node:http';
import { MAX_BODY_BYTES } from '@shadebox/http-fast-path';
import { HttpError } from './http-error.js';

export const BODY_LIMIT = MAX_BODY_BYTES;
export const MAX_DEPTH = 32;

const EMPTY = Buffer.alloc(0);

export function readBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    req.resume();
    return Promise.reject(
      new HttpError(413, 'body_too_large', `the body exceeds ${limit} bytes: send less (args included)`),
    );
  }
  // Nothing to wait for (the original client posts no body at all).
  if (declared === 0 && req.headers['transfer-encoding'] === undefined) {
    req.resume();
    return Promise.resolve(EMPTY);
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      if (failed) return;
      size += chunk.length;
      if (size > limit) {
        failed = true;
        reject(
          new HttpError(413, 'body_too_large', `the body exceeds ${limit} bytes: send less (args included)`),
        );
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks));
    });
    req.on('error', (e) => {
      if (!failed) reject(e);
    });
  });
}

/** The deepest nesting of arrays/objects in JSON text (strings skipped). */
export function jsonDepth(text: string): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      depth++;
      if (depth > max) max = depth;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return max;
}

export function parseJsonBody(bytes: Buffer | string, maxDepth = MAX_DEPTH): unknown {
  const text = typeof bytes === 'string' ? bytes : bytes.toString('utf8');
  if (text.trim() === '') return {};
  if (jsonDepth(text) > maxDepth) {
    throw new HttpError(400, 'too_deep', `JSON nesting deeper than ${maxDepth} levels: flatten the args`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new HttpError(
      400,
      'invalid_json',
      'the body is not valid JSON: send a JSON object such as {"methodName": "get_agent", "args": {}}',
    );
  }
}
