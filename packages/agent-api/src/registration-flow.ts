/**
 * How an agent contract registers agents, told from the methods its code exports (`view_code`), so any
 * contract the stack was given works without a setting:
 * - `codehash`: Shadebox's built-in contract and the original shade-agent contracts — the owner approves a
 *   codehash, the agent calls `register_agent({codehash})` (or a TEE quote); `get_agent` panics
 *   "no worker found" for an unknown agent.
 * - `whitelist`: the Shade Agent Framework 2.0 template's pre-release (December 2025) — the owner calls
 *   `whitelist_agent({account_id})`, then the agent calls `register_agent({attestation})`; `get_agent` returns
 *   `null` or `{account_id, verified, whitelisted, codehash}`.
 * - `whitelist-local`: the 2.0 template at its release and Shadebox's built-in 2.0 contract (agent-v2) in local
 *   mode — the owner calls `whitelist_agent_for_local({account_id})` (with the mock measurements and the
 *   default PPID approved), then the agent calls `register_agent({attestation})` with ShadeClient's local
 *   attestation and the storage deposit; `get_agent` returns `null` or `{…, validity: "Valid" | {Invalid}}`.
 */
import { contractErrorFromText, type RpcClient, RpcError } from '@shadebox/near-client';
import { base64Decode } from '@shadebox/primitives';
import { BootError } from './boot-error.js';
import { wasmExportedFunctions } from './wasm-exports.js';

export type RegistrationFlow = 'codehash' | 'whitelist' | 'whitelist-local';

/** The flow of a contract exporting `methods`, or undefined when it cannot register agents. */
export function registrationFlowOf(methods: readonly string[]): RegistrationFlow | undefined {
  if (!methods.includes('register_agent')) return undefined;
  if (methods.includes('whitelist_agent_for_local')) return 'whitelist-local';
  return methods.includes('whitelist_agent') ? 'whitelist' : 'codehash';
}

/** The methods (exported functions) of the contract deployed at `contractId`. */
export async function contractMethods(rpc: RpcClient, contractId: string): Promise<string[]> {
  let code: string;
  try {
    const r = await rpc.call('query', {
      request_type: 'view_code',
      finality: 'final',
      account_id: contractId,
    });
    code = r.code_base64;
  } catch (e) {
    // The same errors (and messages) as a view of the missing contract gives.
    if (e instanceof RpcError && (e.causeName === 'UNKNOWN_ACCOUNT' || e.causeName === 'NO_CONTRACT_CODE')) {
      throw contractErrorFromText('', e.causeName, e);
    }
    throw e;
  }
  return wasmExportedFunctions(base64Decode(code));
}

/** The registration flow of the agent contract at `contractId`; a contract without `register_agent` is refused. */
export async function detectRegistrationFlow(rpc: RpcClient, contractId: string): Promise<RegistrationFlow> {
  const flow = registrationFlowOf(await contractMethods(rpc, contractId));
  if (flow === undefined) {
    throw new BootError(`the agent contract ${contractId} has no register_agent method`, {
      stage: 'register',
      accountId: contractId,
    });
  }
  return flow;
}
