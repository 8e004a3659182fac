/**
 * NEAR's production signer builds on a local chain (`--signer-wasm`, `--signer-from`): the code deployed at
 * the MPC contract id and initialised running with the responder's root keys, so the contract's
 * `public_key`/`derived_public_key` views answer the keys the responder signs with.
 *
 * Each version's `init_running` (a private method: called by the contract account itself) takes its own
 * shapes; they are tried newest first, each a separate transaction, so a refused one leaves no state:
 *
 * - 3.x: `init_running({domains: [{id, protocol, purpose, reconstruction_threshold}] (3.9: {id, curve, purpose};
 *   early 3.x: {id, scheme, purpose}), next_domain_id, keyset, parameters, init_config})`; 3.10 refuses
 *   a participant with both `tls_public_key` and `sign_pk` (an alias there), so they get `tls_public_key` only;
 * - 2.x: the same with `domains: [{id, scheme}]` and participants' `sign_pk` (3.x calls it `tls_public_key`);
 * - legacy v1: `init_running({epoch, participants, threshold, public_key})` (secp256k1 only).
 *
 * Participants are the responder's account and a second account (threshold 2 of 2, as NEAR's localnet
 * setup); 3.x seeds a mock attestation whose account key is the participant's `tls_public_key`, so the
 * responder's access key is its TLS key and its `respond` passes the attested-participant check (3.10 to 3.12
 * seed an all-zero account key instead: deploy.ts then has the responder submit its own mock attestation).
 */
import { ShadeboxError } from '@shadebox/errors';
import { base58Decode } from '@shadebox/primitives';

export interface ParticipantKey {
  accountId: string;
  /** `ed25519:…` public key. */
  publicKey: string;
}

/** The node refused every known `init_running` shape, or cannot run the build at all. */
export class SignerInitError extends ShadeboxError<{ signerContractId: string; attempts: string[] }> {
  constructor(message: string, signerContractId: string, attempts: string[]) {
    super(message, {
      details: { signerContractId, attempts },
      docsPath: 'docs/chain-signatures.md#running-nears-production-signer',
    });
  }
}

function edwardsPoint(naj: string): number[] {
  // The compressed point: what the contract's `EdwardsPoint` reads from JSON (it decompresses it).
  return Array.from(base58Decode(naj.slice('ed25519:'.length)));
}

/** The `init_running` argument sets to try, newest shape first, labelled for error messages. */
export function initRunningAttempts(
  publicKeys: { secp256k1: string; ed25519: string },
  participants: ParticipantKey[],
): Array<{ label: string; args: unknown }> {
  const keyset = {
    epoch_id: 0,
    domains: [
      { domain_id: 0, key: { Secp256k1: { near_public_key: publicKeys.secp256k1 } }, attempt: 0 },
      {
        domain_id: 1,
        key: {
          Ed25519: {
            near_public_key_compressed: publicKeys.ed25519,
            edwards_point: edwardsPoint(publicKeys.ed25519),
          },
        },
        attempt: 0,
      },
    ],
  };
  // 2.x and 3.9 read `sign_pk`; 3.10 takes it as another name of `tls_public_key` and refuses both.
  const parametersWith = (signPk: boolean) => ({
    threshold: participants.length,
    participants: {
      next_id: participants.length,
      participants: participants.map((p, i) => [
        p.accountId,
        i,
        {
          url: `http://127.0.0.1:${3000 + i}`,
          tls_public_key: p.publicKey,
          ...(signPk ? { sign_pk: p.publicKey } : {}),
        },
      ]),
    },
  });
  const t = participants.length;
  const domains3 = [
    { id: 0, protocol: 'CaitSith', purpose: 'Sign', reconstruction_threshold: t },
    { id: 1, protocol: 'Frost', purpose: 'Sign', reconstruction_threshold: t },
  ];
  const domains3early = [
    { id: 0, scheme: 'Secp256k1', purpose: 'Sign' },
    { id: 1, scheme: 'Ed25519', purpose: 'Sign' },
  ];
  const domains3curve = [
    { id: 0, curve: 'Secp256k1', purpose: 'Sign' },
    { id: 1, curve: 'Edwards25519', purpose: 'Sign' },
  ];
  const domains2 = [
    { id: 0, scheme: 'Secp256k1' },
    { id: 1, scheme: 'Ed25519' },
  ];
  const running = (domains: unknown, signPk = true) => ({
    domains,
    next_domain_id: 2,
    keyset,
    parameters: parametersWith(signPk),
    init_config: null,
  });
  const v1Participants = Object.fromEntries(
    participants.map((p) => [
      p.accountId,
      {
        account_id: p.accountId,
        url: 'http://127.0.0.1:3000',
        cipher_pk: Array.from(base58Decode(p.publicKey.slice(8))),
        sign_pk: p.publicKey,
      },
    ]),
  );
  return [
    { label: '3.x (protocol, reconstruction_threshold)', args: running(domains3) },
    { label: '3.10 (protocol, reconstruction_threshold; no sign_pk)', args: running(domains3, false) },
    { label: '3.9 (curve, purpose)', args: running(domains3curve) },
    { label: '3.x (scheme, purpose)', args: running(domains3early) },
    { label: '2.x (scheme)', args: running(domains2) },
    {
      label: 'legacy v1',
      args: {
        epoch: 0,
        participants: {
          next_id: participants.length,
          participants: v1Participants,
          account_to_participant_id: Object.fromEntries(participants.map((p, i) => [p.accountId, i])),
        },
        threshold: participants.length,
        public_key: publicKeys.secp256k1,
        init_config: null,
      },
    },
  ];
}
