/**
 * Example Shade Agent for an EVM chain, against a local `shadebox up`:
 *
 * 1. reads the chain-signature root key (the signer contract's `public_key` view, domain 0 = secp256k1) over
 *    NEAR JSON-RPC and derives the agent's EVM key and address for (predecessor = the agent contract, path);
 * 2. builds an EIP-1559 transaction with viem and hashes it (keccak256 of the unsigned serialisation);
 * 3. asks the agent API for a signature of that hash (`requestSignature`, which calls the agent contract's
 *    `request_signature`, which calls the signer);
 * 4. serialises the signed transaction and recovers its sender with viem, which must be the derived address.
 *
 * Nothing is broadcast. Prints one JSON line; exits 1 if the recovered sender differs.
 *
 * Environment: AGENT_API_URL (or API_PORT), NEAR_RPC_URL (default http://127.0.0.1:3030),
 * AGENT_CONTRACT_ID (default agent.test.near), MPC_CONTRACT_ID (default signer.test.near), EVM_CHAIN_ID
 * (default 11155111, Sepolia), DERIVATION_PATH (default ethereum-1).
 */
import { requestSignature, toEvmSignature } from '@shadebox/client';
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import {
  getAddress,
  keccak256,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';

const env = process.env;
const RPC_URL = env.NEAR_RPC_URL ?? 'http://127.0.0.1:3030';
const AGENT_CONTRACT = env.AGENT_CONTRACT_ID ?? 'agent.test.near';
const MPC_CONTRACT = env.MPC_CONTRACT_ID ?? 'signer.test.near';
const CHAIN_ID = Number(env.EVM_CHAIN_ID ?? 11155111);
const PATH = env.DERIVATION_PATH ?? 'ethereum-1';

/** A NEAR view call over JSON-RPC; the result parsed as JSON. */
async function view<T>(contractId: string, methodName: string, args: unknown): Promise<T> {
  const response = await fetch(RPC_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 'evm-agent',
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
  if (!body.result) throw new Error(`${methodName} failed: ${JSON.stringify(body.error)}`);
  return JSON.parse(Buffer.from(body.result.result).toString()) as T;
}

async function main(): Promise<void> {
  // 1. The agent's EVM address: root key → key derived for (agent contract, path) → address.
  const rootKey = await view<string>(MPC_CONTRACT, 'public_key', { domain_id: 0 });
  const agentKey = derivedPublicKey(rootKey, AGENT_CONTRACT, PATH, 0);
  const address = getAddress(evmAddress(agentKey));

  // 2. An EIP-1559 transfer from that address (nonce and fees would come from the EVM chain's RPC).
  const tx: TransactionSerializableEIP1559 = {
    type: 'eip1559',
    chainId: CHAIN_ID,
    nonce: 0,
    to: '0x000000000000000000000000000000000000dEaD',
    value: 1_000_000_000_000_000n,
    gas: 21_000n,
    maxFeePerGas: 30_000_000_000n,
    maxPriorityFeePerGas: 1_000_000_000n,
  };
  const hash = keccak256(serializeTransaction(tx));

  // 3. The signature through the agent API (the agent contract is the predecessor the signer sees).
  const signature = await requestSignature({ path: PATH, payload: hash, keyType: 'Ecdsa' });

  // 4. The signed transaction, and its sender as viem recovers it.
  const signedTx = serializeTransaction(tx, toEvmSignature(signature));
  const sender = await recoverTransactionAddress({ serializedTransaction: signedTx });

  const ok = sender === address;
  process.stdout.write(`${JSON.stringify({ ok, address, sender, hash, signedTx, derivedKey: agentKey })}\n`);
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
