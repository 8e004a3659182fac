import type { DstackAttestation2 } from './dstack-attestation.js';

/** The TEE behind the agent API: where the agent key's entropy comes from and how the agent registers. */
export interface TeeProvider {
  readonly mode: 'local' | 'dstack';
  /** The 32-byte seed of the agent key from 32 fresh random bytes. */
  agentSeed(random: Uint8Array): Promise<Uint8Array>;
  /** Arguments of the agent contract's `register_agent` for this agent account. */
  registrationArgs(accountId: string, codehash: string | undefined): Promise<Record<string, unknown>>;
  /** The Shade Agent Framework 2.0 attestation (`register_agent({attestation})` of a contract with
   * `requires_tee: true`) of this agent account: only a TEE gives one (./dstack-attestation.ts). */
  attestation2?(accountId: string): Promise<DstackAttestation2>;
  /** Whether `get_agent`'s record shows this registration. */
  isRegistered(record: unknown, args: Record<string, unknown>): boolean;
}
