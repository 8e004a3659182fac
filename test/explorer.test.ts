/**
 * The explorer page in a real headless Chromium (Debian's `chromium`, driven by playwright-core) against a
 * real stack in this process: a node with chain signatures (signer, agent contract, MPC responder, as
 * `shadebox node --memory --mpc` starts them) and a local EVM chain (anvil, handed to the explorer with
 * `setExplorerSettings` as `shadebox up` does). Journeys: a browser at `/` lands on the explorer; a transfer
 * and contract calls (one failing) are found by search and their receipt trees opened; an account and the
 * agent contract are opened; a signature requested through the agent contract shows up with its derived EVM
 * and Bitcoin testnet addresses; an EIP-1559 transfer signed that way and broadcast on anvil shows under its
 * request, on the derived address's EVM page and on its own page; blocks are found by height; the dev
 * controls produce, snapshot, fast-forward and revert; a plain `chromium --headless --screenshot
 * --virtual-time-budget` of the page completes. Screenshots go to test-artifacts/explorer/.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { ANVIL_DEFAULT_CHAIN_ID, evmRpc, locateAnvil, type RunningAnvil, startAnvil } from '@shadebox/cli';
import { bitcoinP2wpkhAddress, derivedPublicKey, evmAddress } from '@shadebox/mpc';
import { type RunningNode, silentLogger, startNode } from '@shadebox/node';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { Account, actions, JsonRpcProvider, KeyPairSigner, type KeyPairString } from 'near-api-js';
import type { Browser, Page } from 'playwright-core';
import {
  createPublicClient,
  type Hex,
  http,
  keccak256,
  serializeTransaction,
  type TransactionSerializableEIP1559,
} from 'viem';
import {
  type ChainSignatures,
  startChainSignaturesOn,
} from '../packages/cli/src/chain-signatures/service.js';
import type { Json } from './support/raw-rpc.js';
import { testRandom } from './test-random.js';

const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/explorer/', import.meta.url));
const CODEHASH = 'b'.repeat(64);
/** Generous: the machine is shared and slow; these are upper bounds for waits on conditions, not timings. */
const WAIT = { timeout: 30_000 };

/** anvil, found as `shadebox up` finds it. */
const ANVIL = locateAnvil({ env: process.env });
const ANVIL_PATH = ANVIL.found ? ANVIL.path : undefined;
const missing = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is not installed (apt-get install -y chromium)`
  : !ANVIL.found
    ? ANVIL.reason
    : false;
/** Where the EIP-1559 transfer signed through the agent contract goes. */
const DEAD = '0x000000000000000000000000000000000000dEaD';

describe('the explorer in headless Chromium', { skip: missing }, () => {
  let node: RunningNode;
  let signatures: ChainSignatures;
  let anvil: RunningAnvil;
  let rpcUrl: string;
  let browser: Browser;
  let page: Page;
  let root: Account;
  let alice: Account;
  const agentContract = 'agent.test.near';
  const hashes: Record<string, string> = {};
  let transferHeight = 0;
  /** The agent's derived key for ethereum-1, its addresses, and the EVM transfer signed with it. */
  let derivedKey = '';
  let derivedEvm = '';
  const evm = { txHash: '', block: 0 };

  const shot = async (name: string) => {
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  };
  /** Searches, then waits until the page the search leads to has rendered (the explorer marks the body with
   * `data-ready` = the hash it finished showing), so no assertion reads the previous page. */
  const search = async (text: string) => {
    const before = page.url();
    await page.fill('input[type=search]', text);
    await page.click('form.search button');
    await page.waitForFunction(
      (previous) => location.href !== previous && document.body.dataset.ready === (location.hash || '#/'),
      before,
      WAIT,
    );
  };
  const call = (account: Account, method: string, args: Json, deposit = 0n) =>
    account.signAndSendTransaction({
      receiverId: agentContract,
      actions: [actions.functionCall(method, Buffer.from(JSON.stringify(args)), 100n * TGAS, deposit)],
      throwOnFailure: false,
      waitUntil: 'EXECUTED',
    }) as Promise<Json>;

  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
    signatures = await startChainSignaturesOn(node, { log: silentLogger });
    // anvil as `shadebox up` starts it, and what up does once its EVM chain runs.
    anvil = await startAnvil({
      path: ANVIL_PATH!,
      port: 0,
      chainId: ANVIL_DEFAULT_CHAIN_ID,
      log: silentLogger,
    });
    const { chainId } = anvil;
    node.setExplorerSettings({ evm: { rpcUrl: anvil.rpcUrl, chainId } });
    rpcUrl = node.rpcUrl;
    const provider = new JsonRpcProvider({ url: rpcUrl });
    const account = (id: string, key: KeyPairString) =>
      new Account(id, provider, KeyPairSigner.fromSecretKey(key));
    root = account(node.accounts[0].accountId, node.accounts[0].secretKey as KeyPairString);
    const key = testRandom('test/explorer.test.ts').keyPair();
    await root.createSubAccount({
      accountOrPrefix: 'alice',
      publicKey: key.publicKeyString,
      nearToTransfer: 20n * NEAR,
    });
    alice = account(`alice.${root.accountId}`, key.toString() as KeyPairString);

    const transfer = (await root.transfer({ receiverId: alice.accountId, amount: NEAR })) as Json;
    hashes.transfer = transfer.transaction.hash;
    transferHeight = (await provider.viewBlock({ blockId: transfer.transaction_outcome.block_hash })).header
      .height;
    const refused = await call(alice, 'request_signature', {
      path: 'p',
      payload: '11'.repeat(32),
      key_type: 'Ecdsa',
    });
    hashes.refused = refused.transaction.hash;
    const approve = await call(root, 'approve_codehash', { codehash: CODEHASH });
    hashes.approve = approve.transaction.hash;
    await call(alice, 'register_agent', { codehash: CODEHASH });
    const signed = await call(alice, 'request_signature', {
      path: 'ethereum-1',
      payload: '07'.repeat(32),
      key_type: 'Ecdsa',
    });
    assert.ok(signed.status.SuccessValue, `signature request failed: ${JSON.stringify(signed.status)}`);
    hashes.signed = signed.transaction.hash;

    // The agent's loop on the EVM chain: a transfer from its derived address, signed through the agent
    // contract, broadcast on anvil.
    derivedKey = derivedPublicKey(signatures.publicKeys.secp256k1, agentContract, 'ethereum-1', 0);
    derivedEvm = evmAddress(derivedKey);
    await evmRpc(anvil.rpcUrl, 'anvil_setBalance', [derivedEvm, '0xde0b6b3a7640000']);
    const evmTransfer: TransactionSerializableEIP1559 = {
      type: 'eip1559',
      chainId,
      nonce: 0,
      to: DEAD,
      value: 1000n,
      gas: 21_000n,
      maxFeePerGas: 10_000_000_000n,
      maxPriorityFeePerGas: 1_000_000_000n,
    };
    const toSign = keccak256(serializeTransaction(evmTransfer));
    const evmSigned = await call(alice, 'request_signature', {
      path: 'ethereum-1',
      payload: toSign.slice(2),
      key_type: 'Ecdsa',
    });
    const response = JSON.parse(Buffer.from(evmSigned.status.SuccessValue, 'base64').toString());
    const raw = serializeTransaction(evmTransfer, {
      r: `0x${response.big_r.affine_point.slice(2)}` as Hex,
      s: `0x${response.s.scalar}` as Hex,
      yParity: response.recovery_id & 1,
    });
    const hash = await evmRpc<Hex>(anvil.rpcUrl, 'eth_sendRawTransaction', [raw]);
    evm.txHash = hash;
    // anvil's automine mines just after eth_sendRawTransaction returns.
    const evmClient = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50 });
    const receipt = await evmClient.waitForTransactionReceipt({ hash });
    assert.equal(receipt.status, 'success');
    evm.block = Number(receipt.blockNumber);

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(WAIT.timeout);
    console.log(`# explorer screenshots: ${ARTIFACTS}`);
  });

  after(async () => {
    await browser?.close();
    await anvil?.stop();
    await signatures?.stop();
    await node?.stop();
  });

  it('a browser at / lands on the explorer: latest blocks, live head', async () => {
    const response = await page.goto(`${rpcUrl}/`);
    assert.equal(new URL(page.url()).pathname, '/explorer/');
    assert.equal(response?.status(), 200);
    await page.waitForSelector('table.list tbody tr');
    await page.waitForFunction(() => /^\d+$/.test(document.querySelector('[data-head]')?.textContent ?? ''));
    const head = Number(await page.textContent('[data-head]'));
    assert.ok(head >= transferHeight, `head ${head}`);
    const firstRow = await page.textContent('table.list tbody tr td');
    assert.equal(Number(firstRow), head);
    await shot('home');
  });

  it('a transfer is found by its hash and its receipt tree opened', async () => {
    await search(hashes.transfer);
    await page.waitForSelector('[data-receipt-tree]');
    assert.match(page.url(), new RegExp(`#/tx/${hashes.transfer}\\?sender=test\\.near$`));
    assert.equal(await page.textContent('[data-tx-status]'), 'succeeded');
    const tree = await page.textContent('[data-receipt-tree]');
    assert.match(tree!, /transfer 1 NEAR/);
    assert.match(tree!, /alice\.test\.near/);
    // The transaction's receipt and the gas refund beneath it, each with its outcome.
    assert.ok((await page.$$('[data-receipt-tree] .outcome')).length >= 2);
    await shot('tx-transfer');
  });

  it('a failed contract call shows the failure in a sentence, where it happened', async () => {
    await search(hashes.refused);
    await page.waitForSelector('[data-receipt-tree]');
    assert.match(
      (await page.textContent('[data-tx-status]'))!,
      /^failed: Smart contract panicked: no worker found/,
    );
    const failed = await page.textContent('[data-receipt-tree] .outcome.failed');
    assert.match(failed!, /call request_signature\(\)/);
    assert.match(failed!, /"key_type": "Ecdsa"/);
    assert.match(failed!, /failed: Smart contract panicked: no worker found/);
    await shot('tx-failed');
  });

  it('a receipt id leads to its transaction, with the receipt highlighted', async () => {
    await search(hashes.approve);
    await page.waitForSelector('[data-receipt-tree] [data-receipt] a');
    const receiptId = await page.getAttribute('[data-receipt-tree] ul [data-receipt]', 'data-receipt');
    assert.ok(receiptId);
    await search(receiptId);
    await page.waitForSelector('.outcome.highlight');
    assert.equal(await page.getAttribute('.outcome.highlight', 'data-receipt'), receiptId);
    assert.match((await page.textContent('[data-tx-status]'))!, /^succeeded/);
    await shot('receipt');
  });

  it('an account: balance, keys, its transactions', async () => {
    await search('alice.test.near');
    await page.waitForSelector('[data-account="alice.test.near"]');
    assert.match((await page.textContent('[data-balance]'))!, /^\d+(\.\d+)? NEAR$/);
    const body = (await page.textContent('main'))!;
    assert.match(body, /Access keys \(1\)/);
    assert.match(body, /full access/);
    await page.waitForSelector(`a[title="${hashes.transfer}"]`);
    await page.waitForSelector(`a[title="${hashes.signed}"]`);
    await shot('account');
  });

  it('the agent contract: code, registrations, decoded state', async () => {
    await search(agentContract);
    await page.waitForSelector('text=Registered agents (1)');
    const body = (await page.textContent('main'))!;
    assert.match(body, /Agent contract/);
    assert.match(body, /signer\.test\.near/);
    assert.match(body, new RegExp(CODEHASH));
    assert.match(body, /State \(\d+ entries/);
    assert.match(body, /contract\w{43,44} · [\d.]+ KiB/);
    await shot('agent-contract');
  });

  it('the signer’s requests and answers, with the derived EVM and Bitcoin testnet addresses', async () => {
    await page.click('nav >> text=Chain signatures');
    await page.waitForSelector('[data-answered]');
    const rootKey = await page.evaluate(async () => {
      const r = await fetch('/', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'query',
          params: {
            request_type: 'call_function',
            finality: 'final',
            account_id: 'signer.test.near',
            method_name: 'public_key',
            args_base64: btoa('{}'),
          },
        }),
      });
      return JSON.parse(String.fromCharCode(...(await r.json()).result.result));
    });
    const key = derivedPublicKey(rootKey, agentContract, 'ethereum-1', 0);
    assert.equal(key, derivedKey);
    const expected = evmAddress(key);
    // Two requests for ethereum-1: the arbitrary payload, and the EVM transfer.
    const addresses = await page.$$eval('[data-evm]', (els) => els.map((e) => e.textContent));
    assert.deepEqual(addresses, [expected, expected]);
    // One Bitcoin network: testnet P2WPKH, as the CLI prints, and said so.
    const bitcoin = await page.$$eval('[data-bitcoin]', (els) => els.map((e) => e.textContent));
    const expectedBitcoin = bitcoinP2wpkhAddress(key, 'testnet');
    assert.match(expectedBitcoin, /^tb1q/);
    assert.deepEqual(bitcoin, [expectedBitcoin, expectedBitcoin]);
    assert.equal(await page.textContent('[data-bitcoin] + .tag'), 'testnet');
    const row = (await page.textContent('table.list tbody tr'))!;
    assert.match(row, /agent\.test\.near/);
    assert.match(row, /ethereum-1/);
    assert.match(row, /signed by mpc-responder\.test\.near/);
    assert.match(row, /big_r 0[23][0-9a-f]{64}/);
    await shot('signatures');
    // The request's receipt opens inside the agent's transaction: sign, then the yield's callback.
    await page.click('table.list tbody tr td a[href^="#/receipt/"]');
    await page.waitForSelector('.outcome.highlight');
    assert.match(
      (await page.textContent('.outcome.highlight'))!,
      /agent\.test\.near → signer\.test\.near\s*call sign\(\)/,
    );
    const tree = (await page.textContent('[data-receipt-tree]'))!;
    assert.match(tree, /call return_signature_and_clean_state_on_success\(\)/);
    assert.match(
      (await page.textContent('[data-tx-status]'))!,
      /^succeeded, returned \{"scheme":"Secp256k1"/,
    );
    await shot('tx-signature');
  });

  it('the EVM transaction that carries a signature shows under its request', async () => {
    await page.click('nav >> text=Chain signatures');
    const carrier = `[data-evm-carrier="${evm.txHash}"]`;
    await page.waitForSelector(carrier);
    // Only the transfer's request was broadcast: one carrier, in the row of that request.
    assert.equal((await page.$$('[data-evm-carrier]')).length, 1);
    const text = (await page.textContent(carrier))!;
    assert.match(
      text,
      new RegExp(`tx 0x${evm.txHash.slice(2, 6)}…${evm.txHash.slice(-6)} in block ${evm.block}`),
    );
    assert.match(text, /success/);
    assert.match(text, new RegExp(`0x${derivedEvm.slice(2, 6)}…${derivedEvm.slice(-6)} → 0x0000…00dEaD`));
    assert.match(text, /1,000 wei/);
    await page.locator(carrier).scrollIntoViewIfNeeded();
    await shot('signatures-evm');
  });

  it('the derived address’s EVM page: balance, transactions, the signature each carries', async () => {
    await page.click('nav >> text=Chain signatures');
    await page.waitForSelector('[data-evm-carrier]');
    // The row whose signature the transfer carries gives the request's receipt.
    const requestReceipt = await page.getAttribute(
      'tr:has([data-evm-carrier]) a[href^="#/receipt/"]',
      'title',
    );
    assert.ok(requestReceipt);
    await page.click('tr:has([data-evm-carrier]) [data-evm] a');
    await page.waitForSelector(`[data-evm-address="${derivedEvm.toLowerCase()}"]`);
    assert.match(page.url(), new RegExp(`#/evm/address/${derivedEvm}$`));
    const balance = BigInt(await evmRpc<string>(anvil.rpcUrl, 'eth_getBalance', [derivedEvm, 'latest']));
    assert.ok(balance < 10n ** 18n - 1000n, 'the transfer and its gas were paid');
    assert.match((await page.textContent('[data-evm-balance]'))!, /^0\.99\d* ETH$/);
    assert.match((await page.textContent('main'))!, new RegExp(`balance \\(wei\\)${balance}`));
    const row = page.locator(`tr:has([data-evm-tx="${evm.txHash}"])`);
    assert.equal(await row.locator('[data-evm-status]').textContent(), 'success');
    assert.equal(await row.locator('[data-carries]').getAttribute('data-carries'), requestReceipt);
    await shot('evm-address');

    // Its own page, and from there the request it carries the signature of.
    await row.locator(`a[title="${evm.txHash}"]`).click();
    await page.waitForSelector(`[data-evm-tx-page="${evm.txHash}"]`);
    const facts = (await page.textContent('main'))!;
    assert.match(facts, /statussuccess/);
    assert.match(facts, new RegExp(`block${evm.block}`));
    assert.match(facts, /value1,000 weinonce0/);
    assert.match(facts, /type2/);
    assert.match(facts, /yParity 0x[01]/);
    assert.equal(await page.getAttribute('[data-carries]', 'data-carries'), requestReceipt);
    await shot('evm-tx');
    await page.click('[data-carries] a');
    await page.waitForSelector('.outcome.highlight');
    assert.match(
      (await page.textContent('.outcome.highlight'))!,
      /agent\.test\.near → signer\.test\.near\s*call sign\(\)/,
    );
  });

  it('search takes an EVM transaction hash and address; the EVM chain page lists the transfer', async () => {
    await search(evm.txHash);
    await page.waitForSelector(`[data-evm-tx-page="${evm.txHash}"]`);
    await search(DEAD);
    await page.waitForSelector(`[data-evm-address="${DEAD.toLowerCase()}"]`);
    assert.equal(await page.textContent('[data-evm-balance]'), '1,000 wei');
    await page.click('nav >> text=EVM chain');
    await page.waitForSelector(`[data-evm-tx="${evm.txHash}"]`);
    assert.equal(await page.textContent('[data-evm-rpc]'), anvil.rpcUrl);
    await shot('evm-chain');
  });

  it('a plain headless screenshot with a virtual time budget completes', async () => {
    // Exactly what a person runs; the live head's stream must not keep virtual time from advancing.
    const png = `${ARTIFACTS}headless-screenshot.png`;
    rmSync(png, { force: true });
    await promisify(execFile)(
      CHROMIUM,
      [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        `--screenshot=${png}`,
        '--virtual-time-budget=5000',
        `${rpcUrl}/explorer`,
      ],
      { timeout: 60_000 },
    );
    const bytes = readFileSync(png);
    assert.deepEqual([...bytes.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    assert.ok(bytes.length > 10_000, `a page, not a blank: ${bytes.length} bytes`);
  });

  it('a block by height lists its transactions', async () => {
    await search(String(transferHeight));
    await page.waitForSelector(`h2:text-is("Block ${transferHeight}")`);
    await page.waitForSelector(`a[title="${hashes.transfer}"]`);
    await shot('block');
  });

  it('dev controls: produce a block, snapshot, fast-forward, revert', async () => {
    await page.click('nav >> text=Blocks');
    await page.waitForSelector('table.list tbody tr');
    const result = '[data-dev-result]';
    await page.click('button:text-is("Produce a block")');
    await page.waitForFunction(
      (sel) => /^produced block \d+$/.test(document.querySelector(sel)!.textContent!),
      result,
    );
    const produced = Number((await page.textContent(result))!.split(' ').pop());
    // The live list and the header follow the new head.
    await page.waitForFunction(
      (h) => Number(document.querySelector('[data-head]')!.textContent) >= h,
      produced,
    );
    await page.waitForFunction(
      (h) => Number(document.querySelector('table.list tbody tr td')!.textContent) >= h,
      produced,
    );
    await page.click('button:text-is("Snapshot")');
    await page.waitForFunction(
      (sel) => /^snapshot \S+ taken$/.test(document.querySelector(sel)!.textContent!),
      result,
    );
    await page.fill('input[aria-label="blocks to fast-forward"]', '50');
    await page.click('button:text-is("Fast-forward")');
    await page.waitForFunction(
      (sel) => /^fast-forwarded 50 blocks/.test(document.querySelector(sel)!.textContent!),
      result,
    );
    const forwarded = Number((await page.textContent(result))!.split(' ').pop());
    assert.ok(forwarded >= produced + 50, `${forwarded} after ${produced}`);
    await shot('dev-controls');
    await page.click('button:text-is("Revert")');
    await page.waitForFunction(
      (sel) => /^reverted to snapshot/.test(document.querySelector(sel)!.textContent!),
      result,
    );
    const reverted = Number((await page.textContent(result))!.split(' ').pop());
    assert.ok(reverted < forwarded, `${reverted} after ${forwarded}`);
    // The live list is read again after the rewind: nothing above the reverted head.
    await page.waitForFunction(
      (h) => Number(document.querySelector('table.list tbody tr td')!.textContent) <= h,
      reverted,
    );
  });
});
