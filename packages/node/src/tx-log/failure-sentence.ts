/**
 * A failed outcome's `Failure` (nearcore's `TxExecutionError` JSON: `{ActionError: {index, kind}}` or
 * `{InvalidTxError: ...}`) as a sentence a person can act on, for the live transaction log. The wording follows
 * the agent API's contract-failure answers (packages/agent-api/src/contract-failure.ts), which the node cannot
 * import; nearcore's object stays the source: its variant name ends every sentence we do not rephrase.
 */
import { formatNear } from './format-amounts.js';

type Json = Record<string, unknown>;

const PANIC = 'Smart contract panicked: ';

/** The sentence for a `Failure`; */
export function failureSentence(failure: unknown): string {
  const f = (failure ?? {}) as Json;
  const actionError = f.ActionError as { index?: unknown; kind?: unknown } | undefined;
  if (actionError && typeof actionError === 'object') {
    const sentence = actionErrorSentence(actionError.kind);
    return typeof actionError.index === 'number' ? `action ${actionError.index}: ${sentence}` : sentence;
  }
  if (f.InvalidTxError !== undefined) return `invalid transaction: ${variantText(f.InvalidTxError)}`;
  return truncate(JSON.stringify(failure));
}

function actionErrorSentence(kind: unknown): string {
  if (typeof kind === 'string') return kind;
  const k = (kind ?? {}) as Json;
  const call = k.FunctionCallError as Json | undefined;
  if (call && typeof call === 'object') return functionCallSentence(call);
  const name = Object.keys(k)[0] ?? 'unknown';
  const v = (k[name] ?? {}) as Json;
  const account = String(v.account_id ?? '');
  switch (name) {
    case 'AccountDoesNotExist':
      return `the account ${account} does not exist`;
    case 'AccountAlreadyExists':
      return `the account ${account} already exists`;
    case 'CreateAccountNotAllowed':
      return `${String(v.predecessor_id)} may not create ${account}: only its parent account can`;
    case 'ActorNoPermission':
      return `${String(v.actor_id)} may not act on ${account}`;
    case 'LackBalanceForState':
      return `the account ${account} lacks ${formatNear(BigInt(String(v.amount ?? 0)))} to pay for its storage`;
    case 'DeleteKeyDoesNotExist':
      return `the key ${String(v.public_key)} of ${account} does not exist`;
    case 'AddKeyAlreadyExists':
      return `the key ${String(v.public_key)} already exists on ${account}`;
    case 'DeleteAccountWithLargeState':
      return `the account ${account} has too much state to be deleted`;
    default:
      return `${name} ${truncate(JSON.stringify(v))}`;
  }
}

function functionCallSentence(call: Json): string {
  if (call.MethodResolveError === 'MethodNotFound') return 'the contract has no method of that name';
  if (typeof call.MethodResolveError === 'string') {
    return `the method cannot be called (${call.MethodResolveError})`;
  }
  const compilation = call.CompilationError as Json | undefined;
  if (compilation && typeof compilation === 'object') {
    const missing = compilation.CodeDoesNotExist as { account_id?: unknown } | undefined;
    if (missing) return `the account ${String(missing.account_id)} has no contract deployed`;
    return `the contract's Wasm could not be prepared (${Object.keys(compilation)[0]})`;
  }
  if (typeof call.ExecutionError === 'string') {
    const text = call.ExecutionError;
    if (text.startsWith(PANIC)) return `the contract panicked: ${text.slice(PANIC.length)}`;
    if (text === 'Exceeded the prepaid gas.') return 'the call ran out of gas (Exceeded the prepaid gas.)';
    return text;
  }
  return `the call failed: ${truncate(JSON.stringify(call))}`;
}

function variantText(value: unknown): string {
  if (typeof value === 'string') return value;
  return truncate(JSON.stringify(value));
}

function truncate(text: string, max = 300): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
