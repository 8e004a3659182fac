/**
 * The node's JSON-RPC answered in this process, without a socket: a `fetch` that services running beside the
 * node (the MPC responder of `shadebox node --mpc` and `shadebox up`) give to `@shadebox/near-client`'s
 * `RpcClient`. It answers exactly what the RPC port answers for the same body (the 503 once the node stops),
 * but a read costs no connection and no turn of the event loop: an answer computed in the turn a block is made
 * reaches its caller before the next block (the responder's `respond` gets into the very next block).
 */
import { type HttpAnswer, handleJsonRpc, requestIdOf, shuttingDownAnswer } from './jsonrpc.js';
import type { RpcContext } from './rpc-context.js';

export function inProcessFetch(
  ctx: RpcContext,
  isStopping: () => boolean,
  onError: (e: unknown) => void,
  options: { viewsInThread?: boolean } = {},
): typeof fetch {
  // Views asked in process run on this thread, never on a view worker (rpc/view-worker-pool.ts): a worker
  // answers on a later turn of the event loop, after the producer may have made the next block. The context
  // is otherwise the node's own (its fields read through the prototype). A service that does not need its
  // answer before the next block (the agent API) keeps the workers: `viewsInThread: false`.
  const inThread: RpcContext =
    options.viewsInThread === false ? ctx : Object.create(ctx, { viewWorkers: { value: undefined } });
  return (async (_url: unknown, init?: { body?: unknown; signal?: AbortSignal | null }) => {
    init?.signal?.throwIfAborted();
    const body = typeof init?.body === 'string' ? init.body : '';
    let answer: HttpAnswer;
    if (isStopping()) answer = shuttingDownAnswer(requestIdOf(body));
    else {
      const pending = handleJsonRpc(inThread, body, onError);
      answer = pending instanceof Promise ? await abortable(pending, init?.signal) : pending;
    }
    return answerOf(answer);
  }) as typeof fetch;
}

/** `pending`, or its signal's reason once the signal aborts first (as `fetch` rejects: a caller's timeout or
 * stop ends a wait such as `send_tx`'s, whose answer is then dropped, as a closed connection drops it). */
function abortable<T>(pending: Promise<T>, signal: AbortSignal | null | undefined): Promise<T> {
  if (!signal) return pending;
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    pending.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}

/** The answer as the part of a `Response` a JSON-RPC client reads (status, headers, text, json), without the
 * cost of a real one (a body stream, encoding) on every call. */
function answerOf(answer: HttpAnswer): Response {
  return {
    ok: answer.status >= 200 && answer.status < 300,
    status: answer.status,
    statusText: '',
    headers: new Headers({ 'content-type': answer.contentType }),
    text: () => Promise.resolve(answer.body),
    json: () => Promise.resolve().then(() => JSON.parse(answer.body)),
  } as Response;
}
