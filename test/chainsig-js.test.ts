/**
 * chainsig.js@1.1.16 UNCHANGED against `shadebox up`'s defaults, as the Shade Agent docs use it:
 * `new contracts.ChainSignatureContract({ networkId, contractId, fallbackRpcUrls })` with the stack's contract
 * id and RPC, then the `EVM`, `Bitcoin` and `Solana` chain adapters' `deriveAddressAndPublicKey(agent contract,
 * path)`. The addresses it derives are the ones `shadebox up` prints, and the signatures the stack returns
 * for the agent (through the agent API) verify under them: EVM with chainsig.js's own message flow
 * (`prepareMessageForSigning` → `finalizeMessageSigning`) and viem's `recoverMessageAddress`, Bitcoin and
 * Solana with @noble/curves against the key chainsig.js derived.
 *
 * Then the Shade Agent docs' EVM recipe end to end on the stack's own EVM chain (anvil, which `shadebox up`
 * starts where it is installed, an optional dependency: the test is skipped when the stack has none), from the
 * derived address up funds: chainsig.js derives the address, prepares an EIP-1559 transfer,
 * `@neardefi/shade-agent-js`'s `requestSignature` gets the signature from the agent API, chainsig.js
 * finalises and broadcasts it, and anvil mines it from the derived address.
 *
 * chainsig.js, viem and shade-agent-js run in a plain node child process (no tsx, no `--conditions=source`,
 * under which their dependencies would resolve to TypeScript sources).
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { base58 } from '@scure/base';
import { evmRpc } from '@shadebox/cli';
import { type Stack, startStack } from '@shadebox/testing';
import { testRandom } from './test-random.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const rng = testRandom('test/chainsig-js.test.ts');
const MESSAGE = 'shadebox: chainsig.js unchanged';

/** The child's program: `input.mode` is `derive` (the three adapters' addresses and keys, and the EVM hash
 * to sign for MESSAGE) or `finalize` (the EVM signature assembled by chainsig.js, recovered by viem; the
 * Bitcoin signature as chainsig.js's Bitcoin adapter assembles it; the Solana signature as it passes it on). */
const PROGRAM = `
import { contracts, chainAdapters } from 'chainsig.js';
import { createPublicClient, http, recoverMessageAddress } from 'viem';
import { Connection } from '@solana/web3.js';
const input = JSON.parse(process.argv[1]);
const contract = new contracts.ChainSignatureContract({
  networkId: 'testnet',
  contractId: input.contractId,
  fallbackRpcUrls: [input.rpcUrl],
});
// The foreign chains are never reached: derivation and signature assembly need only the NEAR contract.
const evm = new chainAdapters.evm.EVM({
  publicClient: createPublicClient({ transport: http('http://127.0.0.1:9') }),
  contract,
});
const bitcoin = new chainAdapters.btc.Bitcoin({
  network: 'testnet',
  contract,
  btcRpcAdapter: new chainAdapters.btc.BTCRpcAdapters.Mempool('http://127.0.0.1:9'),
});
const solana = new chainAdapters.solana.Solana({ solanaConnection: new Connection('http://127.0.0.1:9'), contract });
let out;
if (input.mode === 'derive') {
  const { predecessor, paths } = input;
  out = {
    evm: await evm.deriveAddressAndPublicKey(predecessor, paths.evm),
    bitcoin: await bitcoin.deriveAddressAndPublicKey(predecessor, paths.bitcoin),
    solana: await solana.deriveAddressAndPublicKey(predecessor, paths.solana),
    evmHashToSign: (await evm.prepareMessageForSigning(input.message)).hashToSign,
  };
} else {
  const toRsv = (response) => contracts.utils.transaction.responseToMpcSignature({ signature: response });
  const evmSignature = evm.finalizeMessageSigning({ rsvSignature: toRsv(input.responses.evm) });
  out = {
    evmSignature,
    evmRecovered: await recoverMessageAddress({ message: input.message, signature: evmSignature }),
    bitcoinSignature: chainAdapters.btc.Bitcoin.transformRSVSignature(toRsv(input.responses.bitcoin)).toString('hex'),
    solanaSignature: Buffer.from(toRsv(input.responses.solana).signature).toString('hex'),
  };
}
process.stdout.write(JSON.stringify(out));
`;

async function chainsig(input: unknown): Promise<Record<string, unknown>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', PROGRAM, JSON.stringify(input)],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

const MARK = 'EVM-RECIPE ';

/** The Shade Agent docs' EVM flow, unchanged but for the contract id and RPC (the stack's). shade-agent-js
 * finds the agent API from API_PORT; it prints lines of its own, so the result is on a marked line. */
const EVM_RECIPE = `
import { contracts, chainAdapters, utils } from 'chainsig.js';
import { createPublicClient, http } from 'viem';
import { requestSignature } from '@neardefi/shade-agent-js';
const input = JSON.parse(process.argv[1]);

const MPC_CONTRACT = new contracts.ChainSignatureContract({
  networkId: 'testnet',
  contractId: input.mpcContractId,
  fallbackRpcUrls: [input.rpcUrl],
});
const publicClient = createPublicClient({ transport: http(input.ethRpcUrl) });
const Evm = new chainAdapters.evm.EVM({ publicClient, contract: MPC_CONTRACT });

const { address } = await Evm.deriveAddressAndPublicKey(input.agentContractId, 'ethereum-1');
const { transaction, hashesToSign } = await Evm.prepareTransactionForSigning({
  from: address,
  to: input.to,
  value: 1000n,
});
const signRes = await requestSignature({
  path: 'ethereum-1',
  payload: utils.cryptography.uint8ArrayToHex(hashesToSign[0]),
});
const signedTransaction = Evm.finalizeTransactionSigning({
  transaction,
  rsvSignatures: [utils.cryptography.toRSV(signRes)],
});
const { hash } = await Evm.broadcastTx(signedTransaction);
const receipt = await publicClient.waitForTransactionReceipt({ hash });
console.log('${MARK}' + JSON.stringify({ address, hash, from: receipt.from, status: receipt.status }));
`;

interface Derived {
  address: string;
  publicKey: string;
}

const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('chainsig.js against shadebox up defaults', () => {
  // The stack, started with @shadebox/testing (its ready line's fields).
  let ready: Stack;

  before(async () => {
    ready = await startStack({ memory: true });
  });
  after(async () => {
    await ready?.stop();
  });

  it('derives the addresses up prints, and the signatures the stack returns verify under them', async () => {
    const printed = ready.agentAddresses;
    assert.equal(ready.mpcContractId, 'signer.test.near');
    assert.equal(printed.predecessor, 'agent.test.near');
    const paths = { evm: printed.evm.path, bitcoin: printed.bitcoin.path, solana: printed.solana.path };
    assert.deepEqual(paths, { evm: 'ethereum-1', bitcoin: 'bitcoin-1', solana: 'solana-1' });

    const derived = (await chainsig({
      mode: 'derive',
      contractId: ready.mpcContractId,
      rpcUrl: ready.rpcUrl,
      predecessor: printed.predecessor,
      paths,
      message: MESSAGE,
    })) as { evm: Derived; bitcoin: Derived; solana: Derived; evmHashToSign: number[] };
    assert.equal(derived.evm.address, printed.evm.address);
    assert.equal(derived.bitcoin.address, printed.bitcoin.address);
    assert.equal(derived.solana.address, printed.solana.address);

    // The agent signs through the agent API: `request_signature` on the agent contract, keys derived for it.
    const agent = ready.agent;
    const bitcoinSighash = new Uint8Array(rng.bytes(32));
    const solanaMessage = new Uint8Array(rng.bytes(150));
    const [evmResponse, bitcoinResponse, solanaResponse] = await Promise.all([
      agent.requestSignature({ path: paths.evm, payload: hex(Uint8Array.from(derived.evmHashToSign)) }),
      agent.requestSignature({ path: paths.bitcoin, payload: hex(bitcoinSighash), keyType: 'Ecdsa' }),
      agent.requestSignature({ path: paths.solana, payload: hex(solanaMessage), keyType: 'Eddsa' }),
    ]);

    const finalized = (await chainsig({
      mode: 'finalize',
      contractId: ready.mpcContractId,
      rpcUrl: ready.rpcUrl,
      message: MESSAGE,
      responses: { evm: evmResponse, bitcoin: bitcoinResponse, solana: solanaResponse },
    })) as { evmRecovered: string; bitcoinSignature: string; solanaSignature: string };

    assert.equal(finalized.evmRecovered, derived.evm.address, 'viem recovers the derived EVM address');
    assert.ok(
      secp256k1.verify(
        Buffer.from(finalized.bitcoinSignature, 'hex'),
        bitcoinSighash,
        Buffer.from(derived.bitcoin.publicKey, 'hex'),
        { prehash: false },
      ),
      'the Bitcoin signature verifies under the derived (compressed) key',
    );
    assert.ok(
      ed25519.verify(
        Buffer.from(finalized.solanaSignature, 'hex'),
        solanaMessage,
        base58.decode(derived.solana.address),
      ),
      'the Solana signature verifies under the derived key (the address)',
    );
  });

  it("the Shade Agent docs' EVM recipe: a transfer signed through the agent API, mined on the stack's EVM chain from the derived address", async (t) => {
    const evm = ready.evm;
    if (evm === null) {
      t.skip('the stack runs no EVM chain: anvil is not installed (optional dependency)');
      return;
    }
    const from = ready.agentAddresses.evm.address;
    const to = '0x000000000000000000000000000000000000dEaD';
    // up funds the derived address (100 ETH) for the transfer and its gas, as a faucet would.
    assert.ok(
      evm.funded.some((entry) => entry.address.toLowerCase() === from.toLowerCase()),
      `up funds the derived address: ${JSON.stringify(evm.funded)}`,
    );
    const { stdout } = await promisify(execFile)(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        EVM_RECIPE,
        JSON.stringify({
          mpcContractId: ready.mpcContractId,
          rpcUrl: ready.rpcUrl,
          agentContractId: ready.agentAddresses.predecessor,
          ethRpcUrl: evm.rpcUrl,
          to,
        }),
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: {
          ...process.env,
          NODE_OPTIONS: '',
          API_PORT: new URL(ready.agentApiUrl).port,
          NEXT_PUBLIC_contractId: '',
          AGENT_API_URL: '',
        },
      },
    );
    const line = stdout.split('\n').find((l) => l.startsWith(MARK));
    assert.ok(line, `no result line in:\n${stdout}`);
    const result = JSON.parse(line.slice(MARK.length)) as { address: string; from: string; status: string };
    assert.equal(result.address, from, 'chainsig.js derives the address up prints');
    assert.equal(result.status, 'success');
    assert.equal(result.from.toLowerCase(), from.toLowerCase(), 'anvil mined it from the derived address');
    assert.equal(BigInt(await evmRpc<string>(evm.rpcUrl, 'eth_getBalance', [to, 'latest'])), 1000n);
  });
});
