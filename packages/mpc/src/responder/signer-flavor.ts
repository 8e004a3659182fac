/**
 * The signer contract versions the responder serves, and how each one spells a pending request (for its
 * `get_pending_request` view and `respond`) and a response:
 *
 * | flavor | contracts | request the contract keeps | response |
 * |---|---|---|---|
 * | `shadebox` | Shadebox's signer (packages/contracts) | `{tweak: hex, payload: {Ecdsa\|Eddsa: hex}, domain_id}` | `{scheme, …}` |
 * | `mpc` | NEAR's signer 2.x and 3.x | `{tweak: [32 numbers], payload, domain_id}` | `{scheme, …}` |
 * | `legacy-v1` | chain-signatures v1 | `{epsilon: {scalar: HEX}, payload_hash: {scalar: HEX}}` | `{big_r, s, recovery_id}` (ECDSA only) |
 *
 * The flavor is found from the contract itself: each version's `get_pending_request` accepts only its own
 * request shape (others fail to deserialize), so the shape it answers (null) for is the one it uses.
 */
import { ShadeboxError } from '@shadebox/errors';
import { type CallOptions, ContractError, type RpcClient, viewFunction } from '@shadebox/near-client';
import { DOMAIN_SECP256K1, hexToBytes } from '../derivation.js';
import type { SignatureResponse } from '../signing.js';
import type { PendingSignatureRequest } from './signature-request.js';

export type SignerFlavor = 'shadebox' | 'mpc' | 'legacy-v1';

export const SIGNER_FLAVORS: readonly SignerFlavor[] = ['shadebox', 'mpc', 'legacy-v1'];

/** No known request shape is accepted by the contract's `get_pending_request`. */
export class UnknownSignerError extends ShadeboxError<{ signerContractId: string; errors: string[] }> {
  constructor(signerContractId: string, errors: string[]) {
    super(`${signerContractId}: not a signer contract this responder knows (get_pending_request)`, {
      details: { signerContractId, errors },
      docsPath: 'docs/chain-signatures.md#the-responder-packagesmpc',
    });
  }
}

/** The request as `flavor`'s contract keeps it (its `get_pending_request` and `respond` argument). */
export function contractRequest(flavor: SignerFlavor, request: PendingSignatureRequest): unknown {
  switch (flavor) {
    case 'shadebox':
      return request;
    case 'mpc':
      return {
        tweak: Array.from(hexToBytes(request.tweak, 32)),
        payload: request.payload,
        domain_id: request.domain_id,
      };
    case 'legacy-v1': {
      const payload = (request.payload as { Ecdsa?: string }).Ecdsa ?? '';
      // k256 scalars: 32 bytes big-endian, as the contract writes them (upper-case hex).
      return {
        epsilon: { scalar: request.tweak.toUpperCase() },
        payload_hash: { scalar: payload.toUpperCase() },
      };
    }
  }
}

/** Whether `flavor`'s contract can answer this request at all (v1 signs ECDSA only). */
export function servesRequest(flavor: SignerFlavor, request: PendingSignatureRequest): boolean {
  return flavor !== 'legacy-v1' || (request.domain_id === DOMAIN_SECP256K1 && 'Ecdsa' in request.payload);
}

/** The arguments of `respond` for `flavor`. */
export function respondArgs(
  flavor: SignerFlavor,
  request: PendingSignatureRequest,
  response: SignatureResponse,
): unknown {
  if (flavor === 'legacy-v1' && response.scheme === 'Secp256k1') {
    return {
      request: contractRequest(flavor, request),
      response: {
        big_r: { affine_point: response.big_r.affine_point.toUpperCase() },
        s: { scalar: response.s.scalar.toUpperCase() },
        recovery_id: response.recovery_id,
      },
    };
  }
  return { request: contractRequest(flavor, request), response };
}

/** Whether the contract has the request pending (`get_pending_request` answers something but null). */
export async function isPending(
  rpc: RpcClient,
  signerContractId: string,
  flavor: SignerFlavor,
  request: PendingSignatureRequest,
  blockId?: number,
  options?: CallOptions,
): Promise<boolean> {
  const answer = await viewFunction(
    rpc,
    signerContractId,
    'get_pending_request',
    { request: contractRequest(flavor, request) },
    blockId === undefined ? { finality: 'optimistic' } : { blockId },
    options,
  );
  return answer !== null && answer !== undefined;
}

const PROBE: PendingSignatureRequest = {
  tweak: '00'.repeat(32),
  payload: { Ecdsa: '00'.repeat(32) },
  domain_id: 0,
};

/** Finds the flavor of the contract at `signerContractId` by the request shape its view accepts. */
export async function detectSignerFlavor(rpc: RpcClient, signerContractId: string): Promise<SignerFlavor> {
  const errors: string[] = [];
  for (const flavor of SIGNER_FLAVORS) {
    try {
      await isPending(rpc, signerContractId, flavor, PROBE);
      return flavor;
    } catch (err) {
      // Only the contract's refusal says "not this shape"; a node that does not answer is an error.
      if (!(err instanceof ContractError)) throw err;
      errors.push(`${flavor}: ${(err as Error).message.slice(0, 200)}`);
    }
  }
  throw new UnknownSignerError(signerContractId, errors);
}
