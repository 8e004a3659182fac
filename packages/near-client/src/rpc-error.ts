/**
 * The node answered with a JSON-RPC error. nearcore's error object is kept as it came (`error`) and its parts
 * are read out: `errorName` (REQUEST_VALIDATION_ERROR, HANDLER_ERROR, INTERNAL_ERROR), `causeName` (e.g.
 * UNKNOWN_ACCOUNT), `info` (the cause's info), and the legacy `code`, `data`.
 */
import { ShadeboxError } from '@shadebox/errors';

/** nearcore's JSON-RPC error object (chain/jsonrpc-primitives/src/errors.rs), fields read one by one. */
export interface NearRpcErrorObject {
  name?: string;
  cause?: { name?: string; info?: unknown };
  code?: number;
  message?: string;
  data?: unknown;
}

export interface RpcErrorDetails {
  method: string;
  errorName?: string;
  causeName?: string;
  code?: number;
}

export class RpcError extends ShadeboxError<RpcErrorDetails> {
  /**
   * Requests of the same call that failed before this answer came (rpc-client.ts): any of them may have
   * reached a node, so a refused `send_tx` may still be held by another node (key-pool.ts follows it).
   */
  failedBefore = 0;

  constructor(
    readonly method: string,
    // biome-ignore lint/suspicious/noExplicitAny: JSON-RPC error objects are inspected field by field.
    readonly error: any,
  ) {
    const object = (error ?? {}) as NearRpcErrorObject;
    super(`${method}: ${describeRpcError(error)}`, {
      details: {
        method,
        errorName: typeof object.name === 'string' ? object.name : undefined,
        causeName: object.cause?.name ?? object.name,
        code: typeof object.code === 'number' ? object.code : undefined,
      },
    });
  }

  /** The cause's name (`UNKNOWN_ACCOUNT`, `INVALID_TRANSACTION` …), or the error's name without a cause. */
  get causeName(): string | undefined {
    return this.error?.cause?.name ?? this.error?.name;
  }

  /** The error's own name: `REQUEST_VALIDATION_ERROR`, `HANDLER_ERROR` or `INTERNAL_ERROR`. */
  get errorName(): string | undefined {
    return typeof this.error?.name === 'string' ? this.error.name : undefined;
  }

  /** The cause's `info` object. */
  get info(): unknown {
    return this.error?.cause?.info;
  }

  /** The legacy numeric code (-32000 for handler errors). */
  get code(): number | undefined {
    return typeof this.error?.code === 'number' ? this.error.code : undefined;
  }

  /** The legacy `data` field. */
  get data(): unknown {
    return this.error?.data;
  }
}

// biome-ignore lint/suspicious/noExplicitAny: see above.
function describeRpcError(error: any): string {
  const cause = error?.cause?.name;
  const data =
    typeof error?.data === 'string' ? error.data : JSON.stringify(error?.data ?? error?.cause?.info ?? '');
  return [cause, error?.message, data]
    .filter((s) => s)
    .join(': ')
    .slice(0, 2000);
}
