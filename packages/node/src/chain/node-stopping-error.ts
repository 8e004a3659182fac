/**
 * The node is stopping: block production has ended and the store is about to close. Work that needs the
 * chain to move on (a fast-forward, a transaction waited on) ends with this error, which the RPC answers as
 * HTTP 503 with a JSON-RPC INTERNAL_ERROR (rpc/jsonrpc.ts), never as a failure to log.
 */
import { ShadeboxError } from '@shadebox/errors';

export const NODE_STOPPING_MESSAGE = 'the node is shutting down';

export class NodeStoppingError extends ShadeboxError {
  constructor() {
    super(NODE_STOPPING_MESSAGE, { docsPath: 'docs/cli.md#stopping' });
  }
}
