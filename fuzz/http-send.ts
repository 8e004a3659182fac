/** Sends an HttpCase with undici and reads the whole answer (or the transport error). */
import type { Pool } from 'undici';
import type { HttpCase } from './rpc-cases.js';
import type { Answer } from './shapes.js';

export async function sendCase(
  pool: Pool,
  c: HttpCase,
  timeoutMs: number,
): Promise<Answer | { error: string }> {
  try {
    const res = await pool.request({
      method: c.method as 'POST',
      path: c.path,
      headers: c.body ? { ...c.headers, 'content-length': String(c.body.length) } : c.headers,
      body: c.body,
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    const body = Buffer.from(await res.body.arrayBuffer());
    const type = res.headers['content-type'];
    return { status: res.statusCode, contentType: (Array.isArray(type) ? type[0] : type) ?? '', body };
  } catch (e) {
    const err = e as { code?: string; message?: string };
    return { error: err.code ?? err.message ?? String(e) };
  }
}
