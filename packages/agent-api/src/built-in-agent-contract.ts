/**
 * Whether a contract is one of Shadebox's built-in agent contracts, told by its code hash (`view_account`'s
 * `code_hash`: base58 of the sha256 of the Wasm). Only those have their `request_signature` arguments checked
 * and normalised by the API (request-signature-args.ts): a user's own contract (`--agent-contract-wasm`, the
 * 2.0 template, the original Rust contracts) decides what its arguments mean, so its calls are passed as given.
 *
 * The code hash, not the exported methods (registration-flow.ts), because a contract built from another
 * source may export the same names and take other arguments. The agent API does not import the contracts
 * package (it runs without it, e.g. against testnet), so the hashes are listed here; the unit test fails
 * when packages/contracts/build/agent.wasm or agent-v2.wasm is not among them. Keep old hashes: a home keeps the contract it
 * was created with.
 */
import { type RpcClient, viewAccount } from '@shadebox/near-client';

/** Code hashes of the agent contracts Shadebox has shipped, newest first. */
export const BUILT_IN_AGENT_CONTRACT_CODE_HASHES: ReadonlySet<string> = new Set([
  // packages/contracts/build/agent-v2.wasm (the 2.0 interface: request_signature({path, payload, key_type})).
  'Fpw9gxbzvaTqxwgZ1QNHTzGpDgqq7yttVh1Eaze5iJeo',
  // Earlier builds of agent-v2.wasm (before its requires_tee path; before its deposit checks; before its
  // `migrate`).
  '5hQk9ivznh8V1V2HUYuC4Mw6c85gqLy5crNQPYNCiREi',
  '3EiMgRvPhko5kER38Vg1xxApckbhcvgivM5Vh9d3168f',
  '2jZnWnqTZ6mp3MuzY3Ycy93t5LobQRYG8PLi2B1hdGHL',
  // packages/contracts/build/agent.wasm (the v1 interface: request_signature({path, payload, key_type?})).
  '84sVXseqk4JwFA4GmZaGfhg75ZixBGZsm9FX63S25ku8',
  // Earlier builds of agent.wasm (before its quote and event-log code moved to assembly/tee/, shared with
  // agent-v2; before its TEE registration replayed RTMR3).
  'CfyPigCHpfzcfDJpPA3mZpkXCJvYWqQMdSzVmBUecPe9',
  '2P4fcbjqAumZVHrWY5vMjzCwERjSnqmY5a3afxCkU34a',
]);

/** How long a contract's code hash read from the chain is used, in ms (a redeploy is seen after it). */
export const CODE_HASH_MAX_AGE_MS = 2_000;

/** `(contractId) => is its deployed code a built-in agent contract?`, reading each contract's code hash at
 * most once per `CODE_HASH_MAX_AGE_MS` (concurrent calls share the read). */
export function builtInAgentContractCheck(
  rpc: RpcClient,
  hashes: ReadonlySet<string> = BUILT_IN_AGENT_CONTRACT_CODE_HASHES,
): (contractId: string) => Promise<boolean> {
  const reads = new Map<string, { builtIn: Promise<boolean>; at: number }>();
  return (contractId) => {
    const now = Date.now();
    const cached = reads.get(contractId);
    if (cached && now - cached.at <= CODE_HASH_MAX_AGE_MS) return cached.builtIn;
    // A missing account is no built-in contract: the call goes on and fails with the chain's own error.
    const builtIn = viewAccount(rpc, contractId).then((a) => a !== null && hashes.has(a.codeHash));
    const entry = { builtIn, at: now };
    reads.set(contractId, entry);
    builtIn.catch(() => {
      if (reads.get(contractId) === entry) reads.delete(contractId);
    });
    return builtIn;
  };
}
