/**
 * The Shade Agent template's loop against a local `shadebox up`, with the stack's own EVM chain standing in for
 * Sepolia:
 *
 * 1. derives the agent's EVM address for `ethereum-1` (the signer's root key, derived for the agent contract);
 * 2. deploys the price oracle (contract/PriceOracle.json, compiled from contract/PriceOracle.sol) from that
 *    address, with that address as its only updater, unless ORACLE_ADDRESS names one already deployed;
 * 3. takes a price (price-source.ts: local, no network), builds `updatePrice(price)`, has it signed through the
 *    agent API (`requestSignature`, the agent contract's `request_signature`), broadcasts it and waits for the
 *    receipt;
 * 4. reads `getPrice()` back.
 *
 * Prints one JSON line; exits 1 when the update failed or the price read back differs.
 *
 * Environment: AGENT_API_URL (or API_PORT; default http://localhost:3140/api/agent), NEAR_RPC_URL (default
 * http://127.0.0.1:3030), EVM_RPC_URL (default http://127.0.0.1:8545), AGENT_CONTRACT_ID (default
 * agent.test.near), MPC_CONTRACT_ID (default signer.test.near), DERIVATION_PATH (default ethereum-1),
 * ORACLE_ADDRESS (an oracle to update instead of deploying one), ORACLE_PRICE (cents; default 312345).
 */
import { readFileSync } from 'node:fs';
import {
  type Abi,
  type Address,
  createPublicClient,
  encodeDeployData,
  encodeFunctionData,
  getAddress,
  type Hex,
  http,
  type PublicClient,
} from 'viem';
import { agentEvmAddress } from './derive-address.js';
import { currentPrice } from './price-source.js';
import { signAndSend } from './sign-and-send.js';

const env = process.env;
const NEAR_RPC_URL = env.NEAR_RPC_URL ?? 'http://127.0.0.1:3030';
const EVM_RPC_URL = env.EVM_RPC_URL ?? 'http://127.0.0.1:8545';
const AGENT_CONTRACT = env.AGENT_CONTRACT_ID ?? 'agent.test.near';
const MPC_CONTRACT = env.MPC_CONTRACT_ID ?? 'signer.test.near';
const PATH = env.DERIVATION_PATH ?? 'ethereum-1';

const oracle = JSON.parse(readFileSync(new URL('./contract/PriceOracle.json', import.meta.url), 'utf8')) as {
  abi: Abi;
  bytecode: Hex;
};

/** The oracle to update: ORACLE_ADDRESS (it must name this agent as its updater), else one deployed now. */
async function oracleAddress(
  client: PublicClient,
  agent: Address,
): Promise<{ address: Address; deployTx?: Hex }> {
  if (env.ORACLE_ADDRESS) {
    const address = getAddress(env.ORACLE_ADDRESS);
    if (!(await client.getCode({ address }))) {
      // The stack's EVM chain starts empty on every `shadebox up`: an oracle from an earlier run is gone.
      throw new Error(`no contract at ORACLE_ADDRESS ${address} on ${EVM_RPC_URL}: unset it to deploy one`);
    }
    const updater = await client.readContract({ address, abi: oracle.abi, functionName: 'updater' });
    if (updater !== agent) {
      throw new Error(
        `the oracle at ${address} takes updates from ${updater}, not from this agent (${agent})`,
      );
    }
    return { address };
  }
  const data = encodeDeployData({ abi: oracle.abi, bytecode: oracle.bytecode, args: [agent] });
  const receipt = await signAndSend(client, agent, PATH, { data });
  if (receipt.status !== 'success' || !receipt.contractAddress) {
    throw new Error(
      `deploying the oracle failed (transaction ${receipt.transactionHash}, ${receipt.status})`,
    );
  }
  return { address: getAddress(receipt.contractAddress), deployTx: receipt.transactionHash };
}

async function main(): Promise<void> {
  const price = currentPrice();
  const agent = await agentEvmAddress({
    nearRpcUrl: NEAR_RPC_URL,
    mpcContractId: MPC_CONTRACT,
    agentContractId: AGENT_CONTRACT,
    path: PATH,
  });
  // viem polls every 4 s by default; a local chain mines at once.
  const client = createPublicClient({ transport: http(EVM_RPC_URL), pollingInterval: 250 });
  const chainId = await client.getChainId();
  if ((await client.getBalance({ address: agent })) === 0n) {
    throw new Error(
      `the agent's address ${agent} holds no ETH on ${EVM_RPC_URL} (chain ${chainId}): fund it ` +
        '(shadebox up funds it with 100 ETH)',
    );
  }

  const { address, deployTx } = await oracleAddress(client, agent);

  const receipt = await signAndSend(client, agent, PATH, {
    to: address,
    data: encodeFunctionData({ abi: oracle.abi, functionName: 'updatePrice', args: [price] }),
  });
  const priceRead = (await client.readContract({
    address,
    abi: oracle.abi,
    functionName: 'getPrice',
  })) as bigint;

  const ok = receipt.status === 'success' && priceRead === price;
  const result = {
    ok,
    agent,
    chainId,
    oracle: address,
    ...(deployTx ? { deployTx } : {}),
    updateTx: receipt.transactionHash,
    block: Number(receipt.blockNumber),
    status: receipt.status,
    price: price.toString(),
    priceRead: priceRead.toString(),
  };
  process.stdout.write(`${JSON.stringify(result)}\n`);
  if (!ok) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
