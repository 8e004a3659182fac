/**
 * nearcore's failure JSON (`TxExecutionError`: `ActionError` or `InvalidTxError`) as one line a person reads:
 * `{"ActionError":{"index":0,"kind":{"FunctionCallError":{"ExecutionError":"Smart contract panicked: no"}}}}`
 * → `action 0 failed: FunctionCallError: ExecutionError: Smart contract panicked: no`.
 */
export function describeFailure(failure: unknown): string {
  if (isObject(failure) && isObject(failure.ActionError)) {
    const { index, kind } = failure.ActionError as { index?: unknown; kind?: unknown };
    const where = typeof index === 'number' ? `action ${index} failed` : 'an action failed';
    return `${where}: ${describeValue(kind)}`;
  }
  if (isObject(failure) && 'InvalidTxError' in failure) {
    return `invalid transaction: ${describeValue(failure.InvalidTxError)}`;
  }
  return describeValue(failure);
}

/** An enum's JSON: `Name: inner` for a one-key object, `Name (a: 1, b: x)` for a struct, text as it is. */
function describeValue(value: unknown): string {
  if (typeof value === 'string') return value;
  if (!isObject(value)) return JSON.stringify(value);
  const keys = Object.keys(value);
  if (keys.length === 1) {
    const [name] = keys as [string];
    const inner = value[name];
    if (isObject(inner) && Object.keys(inner).length !== 1) return `${name} (${describeFields(inner)})`;
    return `${name}: ${describeValue(inner)}`;
  }
  return describeFields(value);
}

function describeFields(value: Record<string, unknown>): string {
  return Object.entries(value)
    .map(([k, v]) => `${k}: ${typeof v === 'string' ? v : JSON.stringify(v)}`)
    .join(', ');
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
