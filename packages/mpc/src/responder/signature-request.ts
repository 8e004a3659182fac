/**
 * The signer's sign request as `pending_requests` lists it, and the response that answers it: signed with
 * the child key of the request's tweak (ECDSA for domain 0, EdDSA for domain 1).
 */
import { ShadeboxError } from '@shadebox/errors';
import { DOMAIN_ED25519, DOMAIN_SECP256K1, hexToBytes } from '../derivation.js';
import type { RootKeys } from '../root-keys.js';
import { type SignatureResponse, signEcdsa, signEddsa } from '../signing.js';

/** The request the signer keeps (`SignatureRequest`), as `pending_requests` lists it. */
export interface PendingSignatureRequest {
  tweak: string;
  payload: { Ecdsa: string } | { Eddsa: string };
  domain_id: number;
}

/** A request the responder cannot answer: an unknown domain, or a payload of the wrong kind. */
export class UnanswerableRequestError extends ShadeboxError<{ domainId: unknown }> {
  constructor(message: string, domainId: unknown) {
    super(message, { details: { domainId } });
  }
}

/** Signs the response to one pending request with the child key of its tweak. */
export function respondTo(rootKeys: RootKeys, request: PendingSignatureRequest): SignatureResponse {
  const tweak = hexToBytes(request.tweak, 32);
  const payload = request.payload as Record<string, unknown>;
  if (request.domain_id === DOMAIN_SECP256K1) {
    if (typeof payload?.Ecdsa !== 'string') {
      throw new UnanswerableRequestError('domain 0 takes an Ecdsa payload', request.domain_id);
    }
    return signEcdsa(rootKeys.childSecret(DOMAIN_SECP256K1, tweak), hexToBytes(payload.Ecdsa, 32));
  }
  if (request.domain_id === DOMAIN_ED25519) {
    if (typeof payload?.Eddsa !== 'string') {
      throw new UnanswerableRequestError('domain 1 takes an Eddsa payload', request.domain_id);
    }
    return signEddsa(rootKeys.childSecret(DOMAIN_ED25519, tweak), hexToBytes(payload.Eddsa));
  }
  throw new UnanswerableRequestError(`unknown domain id ${String(request.domain_id)}`, request.domain_id);
}
