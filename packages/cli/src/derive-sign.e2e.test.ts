/**
 * `shadebox derive` and `shadebox sign` against a running `shadebox up --home DIR --seed S`: the stack records
 * its endpoints in DIR/stack.json, derive finds it there and gives what chainsig.js derives for the same
 * contract (run unchanged in a plain node child) and what the ready line prints; sign gets a signature through
 * the agent API that viem recovers to derive's EVM address (Ecdsa) or that verifies under derive's Solana key
 * (Eddsa); the record is gone after a clean stop, and sign then says no stack runs.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ed25519 } from '@noble/curves/ed25519.js';
import { najToEd25519PublicKey } from '@shadebox/mpc';
import { RpcClient, viewFunction } from '@shadebox/near-client';
import { recoverAddress } from 'viem';
import { runCliInProcess } from '../test-support/cli-in-process.js';
import { CliProcess, REPO_ROOT, tempDir } from '../test-support/cli-process.js';

const SEED = 'derive-sign e2e';

/** chainsig.js's adapters' deriveAddressAndPublicKey, in a plain node child (see test/chainsig-js.test.ts). */
const CHAINSIG = `
import { contracts, chainAdapters } from 'chainsig.js';
import { createPublicClient, http } from 'viem';
import { Connection } from '@solana/web3.js';
const input = JSON.parse(process.argv[1]);
const contract = new contracts.ChainSignatureContract({
  networkId: 'testnet', contractId: input.contractId, fallbackRpcUrls: [input.rpcUrl],
});
const evm = new chainAdapters.evm.EVM({ publicClient: createPublicClient({ transport: http('http://127.0.0.1:9') }), contract });
const bitcoin = new chainAdapters.btc.Bitcoin({
  network: 'testnet', contract, btcRpcAdapter: new chainAdapters.btc.BTCRpcAdapters.Mempool('http://127.0.0.1:9'),
});
const solana = new chainAdapters.solana.Solana({ solanaConnection: new Connection('http://127.0.0.1:9'), contract });
const { predecessor, path } = input;
process.stdout.write(JSON.stringify({
  evm: await evm.deriveAddressAndPublicKey(predecessor, path),
  bitcoin: await bitcoin.deriveAddressAndPublicKey(predecessor, path),
  solana: await solana.deriveAddressAndPublicKey(predecessor, path),
}));
`;

async function chainsig(input: unknown): Promise<Record<string, { address: string }>> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--input-type=module', '-e', CHAINSIG, JSON.stringify(input)],
    { cwd: REPO_ROOT, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' }, timeout: 60_000 },
  );
  return JSON.parse(stdout);
}

interface Ready {
  rpcUrl: string;
  agentApiUrl: string;
  mpcContractId: string;
  agentAddresses: {
    predecessor: string;
    evm: { path: string; address: string };
    bitcoin: { path: string; address: string };
    solana: { path: string; address: string };
  };
}

describe('shadebox derive and sign against shadebox up', () => {
  let cwd: string;
  let up: CliProcess;
  let ready: Ready;

  before(async () => {
    cwd = await tempDir('shadebox-derive-sign-');
    up = new CliProcess(
      ['up', '--home', 'stack', '--rpc-port', '0', '--agent-port', '0', '--seed', SEED, '--json'],
      { cwd },
    );
    ready = JSON.parse(await up.firstLine());
    await up.stdoutIncludes('"agent-ready"');
  });
  after(async () => {
    await up?.stop();
  });

  const cli = (args: string[]) => runCliInProcess(args, { cwd });
  const derive = async (predecessor: string, path: string, chain: string) => {
    const r = await cli(['derive', predecessor, path, '--chain', chain, '--home', 'stack', '--json']);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(r.stdout) as {
      predecessor: string;
      path: string;
      chain: string;
      publicKey: string;
      address: string;
    };
  };

  it('the home records the running stack (stack.json)', () => {
    const record = JSON.parse(readFileSync(join(cwd, 'stack', 'stack.json'), 'utf8'));
    assert.equal(record.pid, up.child.pid);
    assert.equal(record.rpcUrl, ready.rpcUrl);
    assert.equal(record.agentApiUrl, ready.agentApiUrl);
    assert.equal(record.mpcContractId, 'signer.test.near');
  });

  it('derives what chainsig.js derives and what the ready line prints, on every chain', async () => {
    const predecessor = ready.agentAddresses.predecessor;
    for (const path of ['ethereum-1', 'any/other path']) {
      const theirs = await chainsig({
        contractId: ready.mpcContractId,
        rpcUrl: ready.rpcUrl,
        predecessor,
        path,
      });
      const evm = await derive(predecessor, path, 'evm');
      assert.deepEqual(
        { predecessor: evm.predecessor, path: evm.path, chain: evm.chain },
        { predecessor, path, chain: 'evm' },
      );
      assert.equal(evm.address, theirs.evm.address);
      assert.equal((await derive(predecessor, path, 'bitcoin')).address, theirs.bitcoin.address);
      assert.match(theirs.bitcoin.address, /^tb1q/);
      const solana = await derive(predecessor, path, 'solana');
      assert.equal(solana.address, theirs.solana.address);
      // The signer's own derived_public_key view agrees, and near's implicit account is that key in hex.
      const rpc = new RpcClient(ready.rpcUrl, 10_000);
      for (const [chain, domainId] of [
        ['evm', 0],
        ['near', 1],
      ] as const) {
        const key = await viewFunction(rpc, ready.mpcContractId, 'derived_public_key', {
          path,
          predecessor,
          domain_id: domainId,
        });
        assert.equal((await derive(predecessor, path, chain)).publicKey, key);
      }
      const near = await derive(predecessor, path, 'near');
      assert.equal(near.address, Buffer.from(najToEd25519PublicKey(solana.publicKey)).toString('hex'));
    }
    const printed = ready.agentAddresses;
    assert.equal((await derive(predecessor, printed.evm.path, 'evm')).address, printed.evm.address);
    assert.equal(
      (await derive(predecessor, printed.bitcoin.path, 'bitcoin')).address,
      printed.bitcoin.address,
    );
    assert.equal((await derive(predecessor, printed.solana.path, 'solana')).address, printed.solana.address);
  });

  it('signs through the agent API: viem recovers the derived EVM address, Eddsa verifies under the Solana key', async () => {
    const predecessor = ready.agentAddresses.predecessor;
    const hash = `0x${'5a'.repeat(32)}` as const;
    const ecdsa = await cli(['sign', 'ethereum-1', hash, '--home', 'stack', '--json']);
    assert.equal(ecdsa.code, 0, ecdsa.stderr);
    const sig = JSON.parse(ecdsa.stdout);
    assert.equal(sig.keyType, 'Ecdsa');
    assert.equal(sig.v, 27 + sig.recoveryId);
    assert.equal(sig.signature, `${sig.r}${sig.s.slice(2)}${sig.v.toString(16)}`);
    const recovered = await recoverAddress({ hash, signature: sig.signature });
    assert.equal(recovered, (await derive(predecessor, 'ethereum-1', 'evm')).address);
    // Without 0x, and as text: r, s and v lines.
    const text = await cli(['sign', 'ethereum-1', hash.slice(2), '--home', 'stack']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^r +0x[0-9a-f]{64}\ns +0x[0-9a-f]{64}\nv +(27|28) +\(recovery id [01]\)\n$/);

    const message = 'c0'.repeat(40);
    const eddsa = await cli([
      'sign',
      'solana-1',
      message,
      '--key-type',
      'Eddsa',
      '--agent-api',
      ready.agentApiUrl,
      '--json',
    ]);
    assert.equal(eddsa.code, 0, eddsa.stderr);
    const signature = JSON.parse(eddsa.stdout).signature as string;
    assert.match(signature, /^0x[0-9a-f]{128}$/);
    const key = najToEd25519PublicKey((await derive(predecessor, 'solana-1', 'solana')).publicKey);
    assert.ok(ed25519.verify(Buffer.from(signature.slice(2), 'hex'), Buffer.from(message, 'hex'), key));
  });

  it("the agent API's refusal is one line and exit 1", async () => {
    const r = await cli(['sign', 'ethereum-1', 'abcd', '--home', 'stack']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /^shadebox sign: error: args\.payload must be 32 bytes .*got 2 bytes\n$/);
  });

  it('a clean stop removes the record; sign then says no stack runs there', async () => {
    const exit = await up.stop('SIGINT');
    assert.equal(exit.code, 0, exit.stderr);
    assert.equal(existsSync(join(cwd, 'stack', 'stack.json')), false);
    const r = await cli(['sign', 'ethereum-1', 'ab'.repeat(32), '--home', 'stack']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /no running stack in .*stack \(no stack\.json\).*pass --agent-api URL/);
  });
});
