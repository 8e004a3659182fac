/** Types of the agent API's requests and responses (the HTTP contract under `/api/agent`). */

/** Signature schemes of `request_signature`: `Ecdsa` is secp256k1 (domain 0), `Eddsa` is ed25519 (domain 1). */
export const SignatureKeyType = {
  Ecdsa: 'Ecdsa',
  Eddsa: 'Eddsa',
} as const;
export type SignatureKeyType = (typeof SignatureKeyType)[keyof typeof SignatureKeyType];

/** `POST /getAccountId`. */
export interface AgentAccountIdResponse {
  /** The agent's implicit account: 64 lowercase hex characters. */
  accountId: string;
}

/**
 * `get_agent` of the agent contract (through `POST /view`). The built-in contract answers `{codehash}` (and
 * `checksum` after a TEE registration); the Shade Agent Framework 2.0 template answers
 * `{account_id, verified, whitelisted, codehash}` (`codehash` "not-in-a-tee" when registered locally).
 */
export interface AgentInfoResponse {
  /** Hash of the app image the agent runs. */
  codehash: string;
  /** Set by a TEE registration (attestation checksum); absent when the service runs locally. */
  checksum?: string;
  /** 2.0 template: the agent's account id. */
  account_id?: string;
  /** 2.0 template: registered (after the owner's whitelisting). */
  verified?: boolean;
  /** 2.0 template: whitelisted by the owner. */
  whitelisted?: boolean;
}

/** `POST /getBalance`. */
export interface AgentBalanceResponse {
  /** Available balance in yoctoNEAR, a decimal integer string. */
  balance: string;
}

/** NEAR's ECDSA (secp256k1) signature response. */
export interface EcdsaSignatureResponse {
  scheme: 'Secp256k1';
  /**
   * The nonce point R, compressed (66 hex characters: 02/03 prefix then x). r is x, i.e. this minus its
   * first byte. The prefix is R's own y parity and is not the recovery bit: use `recovery_id`.
   */
  big_r: { affine_point: string };
  /** s, 64 hex characters, low-S. */
  s: { scalar: string };
  /** The recovery id (0 or 1) that recovers the signing key from (r, s). */
  recovery_id: number;
}

/** NEAR's EdDSA (ed25519) signature response. */
export interface EddsaSignatureResponse {
  scheme: 'Ed25519';
  /** The 64-byte signature R‖S, as numbers 0–255. */
  signature: number[];
}

export type SignatureResponse = EcdsaSignatureResponse | EddsaSignatureResponse;

/** Arguments of `POST /view`. */
export interface ContractViewArgs {
  /** Method of the agent contract. */
  methodName: string;
  /** Its JSON arguments (default `{}`). */
  args?: Record<string, unknown>;
}

/** Arguments of `POST /call`. */
export interface ContractCallArgs extends ContractViewArgs {
  /** Gas, sent as a decimal string; the service's default when omitted. */
  gas?: string | number | bigint;
}

/** Arguments of `requestSignature`. */
export interface RequestSignatureArgs<K extends SignatureKeyType = SignatureKeyType> {
  /** Derivation path (free-form, e.g. `ethereum-1`). */
  path: string;
  /** The hash to sign: hex (an optional `0x` is dropped) or bytes (sent as lowercase hex). */
  payload: string | Uint8Array;
  /** `Ecdsa` (default) or `Eddsa`. */
  keyType?: K;
}

/** The error body of the Shadebox agent API. */
export interface AgentApiErrorBody {
  error: {
    code: string;
    message: string;
    field?: string;
    stage?: string;
  };
}
