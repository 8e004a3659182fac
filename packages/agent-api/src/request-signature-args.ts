/**
 * The arguments of the built-in agent contracts' `request_signature` (built-in-agent-contract.ts tells which
 * contracts those are), `{path, payload, key_type?}` as the original @neardefi/shade-agent-js client sends
 * them, checked before the transaction is paid for. The contract only forwards them to the signer's `sign`, so
 * a bad payload would otherwise fail a paid transaction with an error about `request.payload_v2.Ecdsa`, a field
 * the caller never sent, and an argument it does not take would be paid for (a large one runs out of gas). The
 * rules are NEAR's signer's: Ecdsa payloads are exactly 32 bytes and below the secp256k1 group order; Eddsa
 * payloads are 32 to 1232 bytes. The payload is hex in either case, with or without `0x` (viem's `keccak256`
 * gives `0x…`, and the original client sends it as is); the contract gets it as lowercase hex without `0x`.
 */
import { TGAS } from '@shadebox/primitives';
import type { ContractRequest } from './contract-request.js';
import { HttpError } from './http-error.js';

export const REQUEST_SIGNATURE = 'request_signature';
export const KEY_TYPES = ['Ecdsa', 'Eddsa'] as const;
export type KeyType = (typeof KEY_TYPES)[number];

/** The gas the built-in agent contract requires: its own work plus the 15 Tgas it forwards to `sign`. */
export const REQUEST_SIGNATURE_MIN_GAS = 25n * TGAS;
export const EDDSA_MIN_BYTES = 32;
export const EDDSA_MAX_BYTES = 1232;
/** secp256k1's group order n: an Ecdsa payload must be a scalar below it. */
const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

/** The arguments the built-in contracts' `request_signature` takes; any other is refused. */
const TAKES = ['path', 'payload', 'key_type'];

export interface RequestSignatureArgs {
  path: string;
  /** Lowercase hex without `0x`, as the contract gets it. */
  payload: string;
  keyType: KeyType;
}

function invalid(field: string, message: string): HttpError {
  return new HttpError(400, 'invalid_field', message, field);
}

/** Checks `args` of a `request_signature` call; throws a 400 naming `args.<field>` when one is wrong. */
export function checkRequestSignatureArgs(args: Record<string, unknown>): RequestSignatureArgs {
  for (const name of Object.keys(args)) {
    if (!TAKES.includes(name)) {
      const shown = name.slice(0, 64);
      throw invalid(
        `args.${shown}`,
        `args.${shown} is not an argument of request_signature: the agent contract takes path, payload and key_type; leave ${JSON.stringify(shown)} out`,
      );
    }
  }
  const { path, payload, key_type: keyType = 'Ecdsa' } = args;
  if (typeof path !== 'string') {
    throw invalid(
      'args.path',
      'args.path must be a string: the derivation path of the key, e.g. "ethereum-1"',
    );
  }
  if (typeof keyType !== 'string' || !(KEY_TYPES as readonly string[]).includes(keyType)) {
    throw invalid(
      'args.key_type',
      'args.key_type must be "Ecdsa" (secp256k1, the default) or "Eddsa" (ed25519), spelled as shown',
    );
  }
  const eddsa = keyType === 'Eddsa';
  const wanted = eddsa
    ? `${EDDSA_MIN_BYTES} to ${EDDSA_MAX_BYTES} bytes of hex for key_type Eddsa`
    : '32 bytes of hex for key_type Ecdsa (64 hex digits, e.g. a keccak256 or sha256 hash)';
  if (typeof payload !== 'string')
    throw invalid('args.payload', `args.payload must be a string of ${wanted}`);
  // viem's keccak256 and toHex give `0x…`; the contract reads the digits only.
  const digits = /^0x/i.test(payload) ? payload.slice(2) : payload;
  if (!/^[0-9a-fA-F]*$/.test(digits) || digits.length % 2 !== 0) {
    throw invalid(
      'args.payload',
      `args.payload is not hex: it must be ${wanted}, an even number of the digits 0-9 a-f (0x allowed)`,
    );
  }
  const bytes = digits.length / 2;
  if (eddsa ? bytes < EDDSA_MIN_BYTES || bytes > EDDSA_MAX_BYTES : bytes !== 32) {
    throw invalid('args.payload', `args.payload must be ${wanted}, got ${bytes} bytes`);
  }
  if (!eddsa && BigInt(`0x${digits}`) >= SECP256K1_N) {
    throw invalid(
      'args.payload',
      'args.payload is not below the secp256k1 group order, so it cannot be signed with Ecdsa: hash the message (e.g. keccak256 or sha256) and send the hash',
    );
  }
  return { path, payload: digits.toLowerCase(), keyType: keyType as KeyType };
}

/** A `request_signature` call must leave the contract gas to forward to the signer. */
export function checkRequestSignatureGas(gas: bigint): void {
  if (gas < REQUEST_SIGNATURE_MIN_GAS) {
    throw invalid(
      'gas',
      `request_signature needs at least ${REQUEST_SIGNATURE_MIN_GAS / TGAS} Tgas (${REQUEST_SIGNATURE_MIN_GAS}): leave gas out for the default 100 Tgas`,
    );
  }
}

/**
 * A `request_signature` call to a built-in agent contract with its arguments and gas checked, and its
 * arguments as the contract gets them (`payload` lowercase without `0x`; `key_type` always, "Ecdsa" when it
 * was not sent: the 2.0 contract requires it, as the template does, and the v1 contract reads the same default).
 */
export function builtInRequestSignature(req: ContractRequest): ContractRequest {
  const checked = checkRequestSignatureArgs(req.args as Record<string, unknown>);
  checkRequestSignatureGas(req.gas);
  return { ...req, args: { path: checked.path, payload: checked.payload, key_type: checked.keyType } };
}
