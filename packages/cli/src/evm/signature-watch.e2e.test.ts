/**
 * The EVM signature watcher (signature-watch.ts) against a real node with chain signatures (the signer
 * contract and the MPC responder, in this process) and a real anvil, found and started as `shadebox up` does
 * (locate-anvil.ts, start-anvil.ts): an EIP-1559 transfer from the address derived for (test.near,
 * ethereum-1), signed by a `sign` request the responder answers, is broadcast on anvil;
 * the watcher prints the line naming the transaction, its block, the request's receipt and "success". After
 * `evm_revert` the same transaction mined again is reported again, in its new block. A transaction signed by
 * another key is not reported.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { Account, actions, JsonRpcProvider, KeyPairSigner, type KeyPairString } from 'near-api-js';
import {
  createPublicClient,
  type Hex,
  http,
  keccak256,
  type PublicClient,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { type ChainSignatures, startChainSignaturesOn } from '../chain-signatures/service.js';
import { evmRpc } from './evm-rpc.js';
import { locateAnvil } from './locate-anvil.js';
import { type EvmSignatureWatch, watchEvmSignatures } from './signature-watch.js';
import { ANVIL_DEFAULT_CHAIN_ID, type RunningAnvil, startAnvil } from './start-anvil.js';

/** Resolves once `condition` holds, checking each 50 ms; an upper bound on the wait, not a timing. */
async function until(condition: () => boolean, what: string, limitMs = 30_000): Promise<void> {
  const end = Date.now() + limitMs;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const anvil = locateAnvil({ env: process.env });
const anvilPath = anvil.found ? anvil.path : undefined;

describe('the EVM signature watcher', { skip: anvil.found ? false : anvil.reason }, () => {
  let node: RunningNode;
  let signatures: ChainSignatures;
  let evm: RunningAnvil;
  let evmUrl: string;
  let client: PublicClient;
  let watch: EvmSignatureWatch;
  const lines: string[] = [];
  const errors: Error[] = [];

  before(async () => {
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    signatures = await startChainSignaturesOn(node, { log: silentLogger });
    evm = await startAnvil({
      path: anvilPath!,
      port: 0,
      chainId: ANVIL_DEFAULT_CHAIN_ID,
      log: silentLogger,
    });
    evmUrl = evm.rpcUrl;
    // anvil's automine mines just after eth_sendRawTransaction returns: receipts are waited for.
    client = createPublicClient({ transport: http(evmUrl), pollingInterval: 50 });
    watch = await watchEvmSignatures({
      rpcUrl: evmUrl,
      node,
      write: (text) => lines.push(text),
      pollMs: 50,
      onError: (error) => errors.push(error),
    });
  });

  after(async () => {
    await watch?.stop();
    await evm?.stop();
    await signatures?.stop();
    await node?.stop();
  });

  it('prints the line for a transaction carrying a chain signature, and again after a revert', async () => {
    const [root] = node.accounts;
    const predecessor = root.accountId;
    const from = evmAddress(derivedPublicKey(signatures.publicKeys.secp256k1, predecessor, 'ethereum-1', 0));
    await evmRpc(evmUrl, 'anvil_setBalance', [from, '0xde0b6b3a7640000']);
    const tx: TransactionSerializableEIP1559 = {
      type: 'eip1559',
      chainId: Number(BigInt(await evmRpc<string>(evmUrl, 'eth_chainId'))),
      nonce: 0,
      to: '0x000000000000000000000000000000000000dEaD',
      value: 1000n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    };
    const hashToSign = keccak256(serializeTransaction(tx));

    // The request, as an agent contract would make it, but from the genesis account.
    const account = new Account(
      predecessor,
      new JsonRpcProvider({ url: node.rpcUrl }),
      KeyPairSigner.fromSecretKey(root.secretKey as KeyPairString),
    );
    const outcome = (await account.signAndSendTransaction({
      receiverId: signatures.mpcContractId,
      actions: [
        actions.functionCall(
          'sign',
          { request: { path: 'ethereum-1', payload_v2: { Ecdsa: hashToSign.slice(2) }, domain_id: 0 } },
          300_000_000_000_000n,
          1n,
        ),
      ],
      waitUntil: 'EXECUTED',
    })) as unknown as {
      status: { SuccessValue?: string };
      transaction_outcome: { outcome: { status: { SuccessReceiptId: string } } };
    };
    const requestId = outcome.transaction_outcome.outcome.status.SuccessReceiptId;
    const response = JSON.parse(Buffer.from(outcome.status.SuccessValue!, 'base64').toString()) as {
      big_r: { affine_point: string };
      s: { scalar: string };
      recovery_id: number;
    };
    const signed = serializeTransaction(tx, {
      r: `0x${response.big_r.affine_point.slice(2)}` as Hex,
      s: `0x${response.s.scalar}` as Hex,
      yParity: response.recovery_id & 1,
    });

    // First a transfer signed by another key: it carries no chain signature (and is read before the next).
    const other = privateKeyToAccount(`0x${'11'.repeat(32)}`);
    await evmRpc(evmUrl, 'anvil_setBalance', [other.address, '0xde0b6b3a7640000']);
    const otherHash = await evmRpc<Hex>(evmUrl, 'eth_sendRawTransaction', [
      await other.signTransaction({ ...tx, nonce: 0 }),
    ]);
    // Mined before the snapshot, or the revert would drop its block too.
    await client.waitForTransactionReceipt({ hash: otherHash });

    const snapshot = await evmRpc<string>(evmUrl, 'evm_snapshot');
    const txHash = await evmRpc<Hex>(evmUrl, 'eth_sendRawTransaction', [signed]);
    const receipt = await client.waitForTransactionReceipt({ hash: txHash });
    assert.equal(receipt.from.toLowerCase(), from.toLowerCase(), 'mined from the derived address');
    const block = Number(receipt.blockNumber);
    const expected = (n: number) =>
      `evm  ${txHash} in block ${n} carries the signature for request ${requestId} (${predecessor}, path "ethereum-1") — success\n`;
    await until(() => lines.length >= 1, 'the watcher line');
    assert.deepEqual(lines, [expected(block)]);

    // Back to before the transfer, a block mined in between, then the same transaction again.
    assert.equal(await evmRpc<boolean>(evmUrl, 'evm_revert', [snapshot]), true);
    await evmRpc(evmUrl, 'evm_mine');
    const again = await evmRpc<string>(evmUrl, 'eth_sendRawTransaction', [signed]);
    assert.equal(again, txHash);
    const reBlock = Number((await client.waitForTransactionReceipt({ hash: txHash })).blockNumber);
    assert.equal(reBlock, block + 1);
    await until(() => lines.length >= 2, 'the line after the revert');
    assert.deepEqual(lines, [expected(block), expected(reBlock)]);
    assert.deepEqual(errors, []);
  });
});
