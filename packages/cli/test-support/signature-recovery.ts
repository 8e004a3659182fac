/**
 * For end-to-end tests of `shadebox up`: a signature requested through the stack's agent API recovers (viem) to
 * the EVM address of the key the signer contract derives for the agent contract (its `derived_public_key` view).
 */
import assert from 'node:assert/strict';
import { createAgentClient } from '@shadebox/client';
import { RpcClient, viewFunction } from '@shadebox/near-client';
import { base58Decode } from '@shadebox/primitives';
import { recoverAddress } from 'viem';
import { bytesToHex, publicKeyToAddress } from 'viem/utils';

export async function assertSignatureRecoversToDerived(
  ready: { agentApiUrl: string; rpcUrl: string; mpcContractId: string; agentContractId: string },
  hash: `0x${string}`,
): Promise<void> {
  const client = createAgentClient({ baseUrl: ready.agentApiUrl });
  const answer = (await client.requestSignature({ path: 'ethereum-1', payload: hash })) as unknown as {
    big_r: { affine_point: string };
    s: { scalar: string };
    recovery_id: number;
  };
  const signature =
    `0x${answer.big_r.affine_point.slice(2)}${answer.s.scalar}${(27 + answer.recovery_id).toString(16)}` as const;
  const key = (await viewFunction(
    new RpcClient([ready.rpcUrl], 30_000),
    ready.mpcContractId,
    'derived_public_key',
    {
      path: 'ethereum-1',
      predecessor: ready.agentContractId,
      domain_id: 0,
    },
  )) as string;
  const derived = publicKeyToAddress(
    bytesToHex(Uint8Array.from([4, ...base58Decode(key.slice('secp256k1:'.length))])),
  );
  assert.equal((await recoverAddress({ hash, signature })).toLowerCase(), derived.toLowerCase());
}
