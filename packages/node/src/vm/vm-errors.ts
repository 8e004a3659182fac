/**
 * The VM's errors as nearcore names and prints them (runtime/near-vm-runner/src/logic/errors.rs). Each error
 * knows two renderings: `display` (what a transaction outcome shows inside `ExecutionError`) and `debug`
 * (Rust's `{:?}` form, which `call_function` puts after "wasm execution failed with error: ").
 */

import { ShadeboxError } from '@shadebox/errors';

type Field = string | number | bigint;

/** Rust's `{:?}` of a struct-like variant: `Name { a: "x", b: 1 }`, or `Name` without fields. */
function rustDebug(name: string, fields?: Record<string, Field>): string {
  if (!fields || Object.keys(fields).length === 0) return name;
  const parts = Object.entries(fields).map(
    ([k, v]) => `${k}: ${typeof v === 'string' ? JSON.stringify(v) : v.toString()}`,
  );
  return `${name} { ${parts.join(', ')} }`;
}

/** A failed function call, in any of nearcore's `FunctionCallError` families. */
export abstract class FunctionCallError extends ShadeboxError {
  /** The JSON nearcore puts under `ActionError.kind.FunctionCallError`. */
  abstract outcomeJson(): unknown;
  /** `FunctionCallError`'s Debug text, e.g. `HostError(GuestPanic { panic_msg: "x" })`. */
  abstract debug(): string;
}

/** `HostError`: raised by a host function (or by the gas/stack instrumentation, which acts as one). */
export class HostError extends FunctionCallError {
  constructor(
    readonly variant: string,
    readonly display: string,
    readonly fields?: Record<string, Field>,
  ) {
    const facts = Object.entries(fields ?? {}).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]);
    super(display, { details: { variant, ...Object.fromEntries(facts) } });
    this.name = 'HostError';
  }
  outcomeJson() {
    return { ExecutionError: this.display };
  }
  debug() {
    return `HostError(${rustDebug(this.variant, this.fields)})`;
  }
}

export type WasmTrapKind =
  | 'Unreachable'
  | 'IncorrectCallIndirectSignature'
  | 'MemoryOutOfBounds'
  | 'CallIndirectOOB'
  | 'IllegalArithmetic'
  | 'MisalignedAtomicAccess'
  | 'IndirectCallToNull'
  | 'StackOverflow'
  | 'GenericTrap';

const TRAP_TEXT: Record<WasmTrapKind, string> = {
  Unreachable: 'An `unreachable` opcode was executed.',
  IncorrectCallIndirectSignature: 'Call indirect incorrect signature trap.',
  MemoryOutOfBounds: 'Memory out of bounds trap.',
  CallIndirectOOB: 'Call indirect out of bounds trap.',
  IllegalArithmetic: 'An arithmetic exception, e.g. divided by zero.',
  MisalignedAtomicAccess: 'Misaligned atomic access trap.',
  IndirectCallToNull: 'Indirect call to null.',
  StackOverflow: 'Stack overflow.',
  GenericTrap: 'Generic trap.',
};

export class WasmTrap extends FunctionCallError {
  constructor(readonly kind: WasmTrapKind) {
    super(`WebAssembly trap: ${TRAP_TEXT[kind]}`, { details: { kind } });
    this.name = 'WasmTrap';
  }
  outcomeJson() {
    return { ExecutionError: this.message };
  }
  debug() {
    return `WasmTrap(${this.kind})`;
  }
}

export type MethodResolveKind = 'MethodEmptyName' | 'MethodNotFound' | 'MethodInvalidSignature';

export class MethodResolveError extends FunctionCallError {
  constructor(readonly kind: MethodResolveKind) {
    super(kind, { details: { kind } });
    this.name = 'MethodResolveError';
  }
  outcomeJson() {
    return { MethodResolveError: this.kind };
  }
  debug() {
    return `MethodResolveError(${this.kind})`;
  }
}

/** nearcore's `PrepareError` variants (the ones protocol 85 can produce). */
export type PrepareErrorKind =
  | 'Serialization'
  | 'Deserialization'
  | 'InternalMemoryDeclared'
  | 'GasInstrumentation'
  | 'StackHeightInstrumentation'
  | 'Instantiate'
  | 'Memory'
  | 'TooManyFunctions'
  | 'TooManyLocals'
  | 'TooManyTables'
  | 'TooManyTableElements'
  | 'FunctionBodyTooLarge'
  | 'InstrumentedCodeTooLarge'
  | 'TooManyBlocksPerFunction'
  | 'TooManyBlocksPerContract'
  | 'TooManyTypes'
  | 'TooManyParamsPerFunction'
  | 'TooManyParamsPerContract'
  | 'OperandStackTooLarge';

/** `CompilationError`: no code, or code that failed preparation. */
export class CompilationError extends FunctionCallError {
  constructor(
    readonly json: { CodeDoesNotExist: { account_id: string } } | { PrepareError: PrepareErrorKind },
  ) {
    super(
      'CodeDoesNotExist' in json
        ? `cannot find contract code for account ${json.CodeDoesNotExist.account_id}`
        : `PrepareError: ${json.PrepareError}`,
      { details: { error: json } },
    );
    this.name = 'CompilationError';
  }
  outcomeJson() {
    return { CompilationError: this.json };
  }
  debug() {
    const inner =
      'CodeDoesNotExist' in this.json
        ? rustDebug('CodeDoesNotExist', { account_id: this.json.CodeDoesNotExist.account_id })
        : `PrepareError(${this.json.PrepareError})`;
    return `CompilationError(${inner})`;
  }
}

/** Thrown by preparation; the runtime wraps it in `CompilationError.PrepareError`. */
export class PrepareError extends ShadeboxError<{ kind: PrepareErrorKind; detail: string }> {
  constructor(
    readonly kind: PrepareErrorKind,
    /** Why, for logs and tests (not part of what nearcore reports). */
    readonly detail = '',
  ) {
    super(`PrepareError: ${kind}${detail ? ` (${detail})` : ''}`, { details: { kind, detail } });
    this.name = 'PrepareError';
  }
}

export class LinkError extends FunctionCallError {
  constructor(readonly msg: string) {
    super(msg, { details: { message: msg } });
    this.name = 'LinkError';
  }
  outcomeJson() {
    return { ExecutionError: `Link Error: ${this.msg}` };
  }
  debug() {
    return `LinkError { msg: ${JSON.stringify(this.msg)} }`;
  }
}

/** Constructors for every HostError with nearcore's Display text. */
export const hostError = {
  badUtf8: () => new HostError('BadUTF8', 'String encoding is bad UTF-8 sequence.'),
  badUtf16: () => new HostError('BadUTF16', 'String encoding is bad UTF-16 sequence.'),
  gasExceeded: () => new HostError('GasExceeded', 'Exceeded the prepaid gas.'),
  gasLimitExceeded: () =>
    new HostError('GasLimitExceeded', 'Exceeded the maximum amount of gas allowed to burn per contract.'),
  balanceExceeded: () => new HostError('BalanceExceeded', 'Exceeded the account balance.'),
  emptyMethodName: () => new HostError('EmptyMethodName', 'Tried to call an empty method name.'),
  guestPanic: (panic_msg: string) =>
    new HostError('GuestPanic', `Smart contract panicked: ${panic_msg}`, { panic_msg }),
  integerOverflow: () => new HostError('IntegerOverflow', 'Integer overflow.'),
  invalidPromiseIndex: (promise_idx: bigint) =>
    new HostError('InvalidPromiseIndex', `${promise_idx} does not correspond to existing promises`, {
      promise_idx,
    }),
  cannotAppendActionToJointPromise: () =>
    new HostError('CannotAppendActionToJointPromise', 'Actions can only be appended to non-joint promise.'),
  // nearcore's Display text of this variant was not in the sources at hand; the JSON of an outcome names
  // the variant only, which is what clients see.
  cannotSetRefundToOnJointPromise: () =>
    new HostError('CannotSetRefundToOnJointPromise', 'Refund-to can only be set on a non-joint promise.'),
  cannotReturnJointPromise: () =>
    new HostError('CannotReturnJointPromise', 'Returning joint promise is currently prohibited.'),
  invalidPromiseResultIndex: (result_idx: bigint) =>
    new HostError('InvalidPromiseResultIndex', `Accessed invalid promise result index: ${result_idx}`, {
      result_idx,
    }),
  invalidRegisterId: (register_id: bigint) =>
    new HostError('InvalidRegisterId', `Accessed invalid register id: ${register_id}`, { register_id }),
  memoryAccessViolation: () => new HostError('MemoryAccessViolation', 'Accessed memory outside the bounds.'),
  invalidAccountId: () => new HostError('InvalidAccountId', 'VM Logic returned an invalid account id'),
  invalidMethodName: () => new HostError('InvalidMethodName', 'VM Logic returned an invalid method name'),
  invalidPublicKey: () => new HostError('InvalidPublicKey', 'VM Logic provided an invalid public key'),
  prohibitedInView: (method_name: string) =>
    new HostError('ProhibitedInView', `${method_name} is not allowed in view calls`, { method_name }),
  numberOfLogsExceeded: (limit: bigint) =>
    new HostError('NumberOfLogsExceeded', `The number of logs will exceed the limit ${limit}`, { limit }),
  keyLengthExceeded: (length: bigint, limit: bigint) =>
    new HostError('KeyLengthExceeded', `The length of a storage key ${length} exceeds the limit ${limit}`, {
      length,
      limit,
    }),
  valueLengthExceeded: (length: bigint, limit: bigint) =>
    new HostError(
      'ValueLengthExceeded',
      `The length of a storage value ${length} exceeds the limit ${limit}`,
      { length, limit },
    ),
  totalLogLengthExceeded: (length: bigint, limit: bigint) =>
    new HostError(
      'TotalLogLengthExceeded',
      `The length of a log message ${length} exceeds the limit ${limit}`,
      { length, limit },
    ),
  numberPromisesExceeded: (number_of_promises: bigint, limit: bigint) =>
    new HostError(
      'NumberPromisesExceeded',
      `The number of promises within a FunctionCall ${number_of_promises} exceeds the limit ${limit}`,
      { number_of_promises, limit },
    ),
  numberInputDataDependenciesExceeded: (number_of_input_data_dependencies: bigint, limit: bigint) =>
    new HostError(
      'NumberInputDataDependenciesExceeded',
      `The number of input data dependencies ${number_of_input_data_dependencies} exceeds the limit ${limit}`,
      { number_of_input_data_dependencies, limit },
    ),
  returnedValueLengthExceeded: (length: bigint, limit: bigint) =>
    new HostError(
      'ReturnedValueLengthExceeded',
      `The length of a returned value ${length} exceeds the limit ${limit}`,
      { length, limit },
    ),
  contractSizeExceeded: (size: bigint, limit: bigint) =>
    new HostError(
      'ContractSizeExceeded',
      `The size of a contract code in DeployContract action ${size} exceeds the limit ${limit}`,
      { size, limit },
    ),
  deprecated: (method_name: string) =>
    new HostError('Deprecated', `Attempted to call deprecated host function ${method_name}`, { method_name }),
  altBn128InvalidInput: (msg: string) =>
    new HostError('AltBn128InvalidInput', `AltBn128 invalid input: ${msg}`, { msg }),
  ecrecoverError: (msg: string) => new HostError('ECRecoverError', `ECDSA recover error: ${msg}`, { msg }),
  ed25519VerifyInvalidInput: (msg: string) =>
    new HostError('Ed25519VerifyInvalidInput', `ED25519 signature verification error: ${msg}`, { msg }),
  bls12381InvalidInput: (msg: string) =>
    new HostError('BLS12381InvalidInput', `BLS12-381 invalid input: ${msg}`, { msg }),
  p256VerifyInvalidInput: (msg: string) =>
    new HostError('P256VerifyInvalidInput', `P256 signature verification error: ${msg}`, { msg }),
  // The Display text follows the P256/ED25519 ones; no stored nearcore source shows this variant's.
  mlDsaVerifyInvalidInput: (msg: string) =>
    new HostError('MlDsaVerifyInvalidInput', `ML-DSA signature verification error: ${msg}`, { msg }),
  yieldPayloadLength: (length: bigint, limit: bigint) =>
    new HostError(
      'YieldPayloadLength',
      `Yield resume payload is ${length} bytes which exceeds the ${limit} byte limit`,
      { length, limit },
    ),
  dataIdMalformed: () => new HostError('DataIdMalformed', 'yield resumption token is malformed'),
  // `limit` is a `ByteSize`: nearcore prints it with bytesize 1.x's Display (decimal units, one decimal).
  recordedStorageExceeded: (limit: number) =>
    new HostError(
      'RecordedStorageExceeded',
      `Size of the recorded trie storage proof has exceeded the allowed limit (${byteSizeText(limit)})`,
      { limit: byteSizeText(limit) },
    ),
  yieldIdMalformed: () => new HostError('YieldIdMalformed', 'yield id is malformed'),
  contractCodeHashMalformed: () =>
    new HostError('ContractCodeHashMalformed', 'contract code hash is malformed'),
};

/** bytesize 1.x's `Display` of a byte count: `N B` below 1000, else one decimal and a decimal unit (`4.0 MB`). */
export function byteSizeText(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const exp = Math.max(1, Math.floor(Math.log(bytes) / Math.log(1000)));
  return `${(bytes / 1000 ** exp).toFixed(1)} ${'KMGTPE'[exp - 1]}B`;
}
