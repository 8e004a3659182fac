/**
 * examples/evm-agent against `shadebox up --memory` (started with @shadebox/testing): the example (a child
 * process, through tsx with the `source` condition) derives its EVM address, signs an EIP-1559 transaction
 * through the agent API and recovers the sender with viem. This test checks its output independently: the
 * address is the one derived here from the signer's root key for (agent.test.near, ethereum-1), and viem's
 * parseTransaction + recoverTransactionAddress of the printed signed transaction give that address.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import { type Stack, startStack } from '@shadebox/testing';
import {
  getAddress,
  keccak256,
  parseTransaction,
  recoverTransactionAddress,
  serializeTransaction,
  type TransactionSerializedEIP1559,
} from 'viem';
import { REPO_ROOT } from '../packages/cli/test-support/cli-process.js';

const run = promisify(execFile);
const AGENT = fileURLToPath(new URL('../examples/evm-agent/agent.ts', import.meta.url));
const TSX = import.meta.resolve('tsx');

interface Output {
  ok: boolean;
  address: string;
  sender: string;
  hash: `0x${string}`;
  signedTx: TransactionSerializedEIP1559;
  derivedKey: string;
}

describe('examples/evm-agent', () => {
  let stack: Stack;

  before(async () => {
    stack = await startStack({ memory: true });
  });

  after(async () => {
    await stack?.stop();
  });

  it('signs an EIP-1559 transaction whose recovered sender is the derived address', async () => {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_OPTIONS: '',
      AGENT_API_URL: stack.agentApiUrl,
      NEAR_RPC_URL: stack.rpcUrl,
    };
    for (const name of ['AGENT_CONTRACT_ID', 'MPC_CONTRACT_ID', 'EVM_CHAIN_ID', 'DERIVATION_PATH'])
      delete env[name];
    const { stdout } = await run(process.execPath, ['--conditions=source', '--import', TSX, AGENT], {
      cwd: REPO_ROOT,
      env,
      // The example loads tsx, viem and the workspace from source, then waits for a signature: on a loaded
      // machine that takes tens of seconds. The bound only catches a hang.
      timeout: 300_000,
    });
    const out = JSON.parse(stdout.trim().split('\n').at(-1)!) as Output;

    // The address, derived here independently of the example.
    const view = await stack.rpc<{ result: number[] }>('query', {
      request_type: 'call_function',
      finality: 'final',
      account_id: 'signer.test.near',
      method_name: 'public_key',
      args_base64: Buffer.from(JSON.stringify({ domain_id: 0 })).toString('base64'),
    });
    const rootKey = JSON.parse(Buffer.from(view.result).toString()) as string;
    const expected = getAddress(evmAddress(derivedPublicKey(rootKey, 'agent.test.near', 'ethereum-1', 0)));
    assert.equal(out.address, expected);
    assert.equal(out.ok, true);
    assert.equal(out.sender, expected);

    // The signed transaction, parsed and recovered here.
    const tx = parseTransaction(out.signedTx);
    assert.equal(tx.type, 'eip1559');
    assert.equal(tx.chainId, 11155111);
    assert.ok(tx.r && tx.s && (tx.yParity === 0 || tx.yParity === 1));
    const { r, s, v, yParity, ...unsigned } = tx;
    assert.equal(
      keccak256(serializeTransaction(unsigned)),
      out.hash,
      'the signed hash is the transaction hash',
    );
    assert.equal(await recoverTransactionAddress({ serializedTransaction: out.signedTx }), expected);
  });
});
