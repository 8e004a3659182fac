/**
 * The agent's EVM address, derived offline as chainsig.js and NEAR's MPC network do: the signer's root
 * secp256k1 key (its `public_key` view, domain 0), the key derived from it for (predecessor, path), that key's
 * address. The predecessor is the agent contract: it is the account that calls the signer's `sign`.
 */
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import { type Address, getAddress } from 'viem';

export interface DeriveOptions {
  /** A NEAR JSON-RPC URL (the stack's node: http://127.0.0.1:3030). */
  nearRpcUrl: string;
  /** The signer (MPC) contract (the stack's: signer.test.near). */
  mpcContractId: string;
  /** The agent contract, which calls the signer (the stack's: agent.test.near). */
  agentContractId: string;
  /** The derivation path the agent signs with (the template's: ethereum-1). */
  path: string;
}

/** A NEAR view call over JSON-RPC; its result parsed as JSON. */
async function view<T>(rpcUrl: string, contractId: string, methodName: string, args: unknown): Promise<T> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'oracle-agent',
      method: 'query',
      params: {
        request_type: 'call_function',
        finality: 'final',
        account_id: contractId,
        method_name: methodName,
        args_base64: Buffer.from(JSON.stringify(args)).toString('base64'),
      },
    }),
  });
  const body = (await response.json()) as { result?: { result: number[] }; error?: unknown };
  if (!body.result) throw new Error(`${contractId}.${methodName} failed: ${JSON.stringify(body.error)}`);
  return JSON.parse(Buffer.from(body.result.result).toString()) as T;
}

/** The agent's EVM address (checksummed) for `options.path`. */
export async function agentEvmAddress(options: DeriveOptions): Promise<Address> {
  const rootKey = await view<string>(options.nearRpcUrl, options.mpcContractId, 'public_key', {
    domain_id: 0,
  });
  const key = derivedPublicKey(rootKey, options.agentContractId, options.path, 0);
  return getAddress(evmAddress(key));
}
