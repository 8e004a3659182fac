/**
 * A failed contract call or view as a sentence a person can act on, with its HTTP status and code; nearcore's
 * error object travels beside it (under `details` in the answer), never as the message.
 *
 * A transaction's failure is nearcore's `ActionError` JSON (`kind.FunctionCallError` is `ExecutionError` text,
 * `MethodResolveError` or `CompilationError`); a view's is the Debug text after "wasm execution failed with
 * error: " (e.g. `MethodResolveError(MethodNotFound)`). A missing method is 404, everything else 422.
 */
import type { ContractError } from '@shadebox/near-client';

export interface FailureAnswer {
  status: number;
  code: string;
  message: string;
  field?: string;
}

const METHOD_NOT_FOUND: FailureAnswer = {
  status: 404,
  code: 'method_not_found',
  message: 'the contract has no method of that name: check methodName against the contract',
  field: 'methodName',
};

const RESOLVE: Record<string, string> = {
  MethodEmptyName: 'the method name is empty: set methodName',
  MethodInvalidSignature:
    'the contract exports this method with parameters or a result, which NEAR cannot call: export it as a function without parameters or result',
};

const noCode = (account: string) =>
  `the account ${account} has no contract deployed: deploy the contract, or name the right account`;

function fail(message: string): FailureAnswer {
  return { status: 422, code: 'contract_error', message };
}

/** The answer for a `ContractError` (its message is already the panic text for panics). */
export function describeContractFailure(e: ContractError): FailureAnswer {
  if (e.panic) return { status: 422, code: 'contract_panic', message: e.message };
  const near = e.nearError as Record<string, unknown> | undefined;
  // A transaction: {ActionError: {index, kind}}.
  const kind = (near?.ActionError as { kind?: Record<string, unknown> } | undefined)?.kind;
  if (kind && typeof kind === 'object') return describeActionError(kind, e.message);
  if (e.message === 'the contract account does not exist') {
    return fail('the contract account does not exist: check contractId, or AGENT_CONTRACT_ID');
  }
  if (e.message === 'the account has no contract deployed') {
    return fail('the account has no contract deployed: deploy the contract, or name the right account');
  }
  // A view: the text of the legacy result or of the JSON-RPC error.
  const text = typeof near?.error === 'string' ? near.error : e.message;
  return describeViewText(text);
}

function describeActionError(kind: Record<string, unknown>, fallback: string): FailureAnswer {
  const call = kind.FunctionCallError as Record<string, unknown> | undefined;
  if (call && typeof call === 'object') {
    if (call.MethodResolveError === 'MethodNotFound') return METHOD_NOT_FOUND;
    if (typeof call.MethodResolveError === 'string') {
      return fail(
        RESOLVE[call.MethodResolveError] ?? `the method cannot be called (${call.MethodResolveError})`,
      );
    }
    const compilation = call.CompilationError as Record<string, unknown> | undefined;
    if (compilation && typeof compilation === 'object') {
      const missing = compilation.CodeDoesNotExist as { account_id?: unknown } | undefined;
      if (missing) return fail(noCode(String(missing.account_id)));
      return fail(
        `the contract's Wasm could not be prepared (${Object.keys(compilation)[0]}): rebuild and redeploy it`,
      );
    }
    if (typeof call.ExecutionError === 'string') return fail(executionSentence(call.ExecutionError));
  }
  const missing = kind.AccountDoesNotExist as { account_id?: unknown } | undefined;
  if (missing) {
    return fail(`the account ${String(missing.account_id)} does not exist: check contractId`);
  }
  const name = Object.keys(kind)[0];
  return fail(name ? `the transaction failed: ${name}` : fallback.slice(0, 200));
}

/** nearcore's ExecutionError texts are sentences already; a few get the next step added. */
function executionSentence(text: string): string {
  if (text === 'Exceeded the prepaid gas.') {
    return 'the call ran out of gas (Exceeded the prepaid gas.): send more gas, up to 1 PGas';
  }
  return text;
}

function describeViewText(text: string): FailureAnswer {
  if (/MethodResolveError\(MethodNotFound\)/.test(text)) return METHOD_NOT_FOUND;
  const resolve = /MethodResolveError\((\w+)\)/.exec(text);
  if (resolve) return fail(RESOLVE[resolve[1]] ?? `the method cannot be called (${resolve[1]})`);
  const noContract = /CodeDoesNotExist \{ account_id: (?:AccountId\()?\\?"?([^"\\)]+)/.exec(text);
  if (noContract) return fail(noCode(noContract[1]));
  const prohibited = /ProhibitedInView \{ method_name: \\?"([^"\\]+)/.exec(text);
  if (prohibited) {
    return fail(
      `the method calls ${prohibited[1]}, which a view may not: call it with /call instead of /view`,
    );
  }
  if (/HostError\(GasExceeded\)|GasLimitExceeded/.test(text)) {
    return fail('the view ran out of gas: views have a fixed gas limit; read less in one call');
  }
  const trap = /WasmTrap\((\w+)\)/.exec(text);
  if (trap) return fail(`the contract trapped (${trap[1]}): a bug in the contract`);
  const host = /HostError\((\w+)/.exec(text);
  if (host) return fail(`the contract failed: a host function refused it (${host[1]})`);
  const stripped = text.replace(/^wasm execution failed with error: /, '');
  return fail(stripped.length > 300 ? `${stripped.slice(0, 300)}…` : stripped);
}
