/**
 * One EVM transaction from the agent's derived address, signed with chain signatures: fill it in from the EVM
 * chain (chain id, nonce, fees, gas), hash it, have the agent contract sign the hash through the agent API
 * (`requestSignature` → `request_signature` → the signer), attach the signature, broadcast, wait for the
 * receipt.
 */
import { requestSignature, toEvmSignature } from '@shadebox/client';
import {
  type Address,
  type Hex,
  keccak256,
  type PublicClient,
  serializeTransaction,
  type TransactionReceipt,
  type TransactionSerializableEIP1559,
} from 'viem';

export interface EvmCall {
  /** The contract called; none for a deployment. */
  to?: Address;
  /** Calldata, or creation code for a deployment. */
  data: Hex;
  value?: bigint;
}

/** Signs `call` from `from` (the address derived for `path`) and broadcasts it; resolves to its receipt. */
export async function signAndSend(
  client: PublicClient,
  from: Address,
  path: string,
  call: EvmCall,
): Promise<TransactionReceipt> {
  const [chainId, nonce, fees, gas] = await Promise.all([
    client.getChainId(),
    client.getTransactionCount({ address: from, blockTag: 'pending' }),
    client.estimateFeesPerGas(),
    client.estimateGas({ account: from, to: call.to, data: call.data, value: call.value }),
  ]);
  const tx: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId,
    nonce,
    to: call.to,
    data: call.data,
    value: call.value ?? 0n,
    gas,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  };
  // The hash an EVM signature covers: keccak256 of the unsigned EIP-1559 serialisation.
  const payload = keccak256(serializeTransaction(tx));
  const signature = await requestSignature({ path, payload, keyType: 'Ecdsa' });
  const serializedTransaction = serializeTransaction(tx, toEvmSignature(signature));
  const hash = await client.sendRawTransaction({ serializedTransaction });
  return client.waitForTransactionReceipt({ hash });
}
