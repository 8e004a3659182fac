/**
 * The explorer page in a real headless Chromium (Debian's `chromium`, driven by playwright-core) against a
 * real stack: `shadebox node --memory --mpc` (a CLI process: node, signer, agent contract, MPC responder).
 * Journeys: a browser at `/` lands on the explorer; a transfer and contract calls (one failing) are found by
 * search and their receipt trees opened; an account and the agent contract are opened; a signature requested
 * through the agent contract shows up with its derived EVM address; blocks are found by height; the dev
 * controls produce, snapshot, fast-forward and revert. Screenshots go to test-artifacts/explorer/.
 */
import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { derivedPublicKey, evmAddress } from '@shadebox/mpc';
import { ONE_NEAR as NEAR, TGAS } from '@shadebox/primitives';
import { Account, actions, JsonRpcProvider, KeyPairSigner, type KeyPairString } from 'near-api-js';
import type { Browser, Page } from 'playwright-core';
import type { Json } from './support/raw-rpc.js';
import { testRandom } from './test-random.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLI = fileURLToPath(new URL('../packages/cli/bin/shadebox.js', import.meta.url));
const CHROMIUM = '/usr/bin/chromium';
const ARTIFACTS = fileURLToPath(new URL('../test-artifacts/explorer/', import.meta.url));
const CODEHASH = 'b'.repeat(64);
/** Generous: the machine is shared and slow; these are upper bounds for waits on conditions, not timings. */
const WAIT = { timeout: 30_000 };

const missing = existsSync(CHROMIUM) ? false : `${CHROMIUM} is not installed (apt-get install -y chromium)`;

describe('the explorer in headless Chromium', { skip: missing }, () => {
  let child: ChildProcess;
  let rpcUrl: string;
  let browser: Browser;
  let page: Page;
  let root: Account;
  let alice: Account;
  const agentContract = 'agent.test.near';
  const hashes: Record<string, string> = {};
  let transferHeight = 0;

  const shot = async (name: string) => {
    await page.screenshot({ path: `${ARTIFACTS}${name}.png`, fullPage: true });
  };
  const search = async (text: string) => {
    await page.fill('input[type=search]', text);
    await page.click('form.search button');
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
    child = spawn(process.execPath, [CLI, 'node', '--memory', '--mpc', '--rpc-port', '0', '--json'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let stderr = '';
    child.stderr?.on('data', (d) => {
      stderr += d;
    });
    const ready = JSON.parse(
      await new Promise<string>((resolve, reject) => {
        createInterface({ input: child.stdout! }).once('line', resolve);
        child.once('exit', (code) => reject(new Error(`shadebox exited ${code}: ${stderr}`)));
      }),
    );
    rpcUrl = ready.rpcUrl;
    const provider = new JsonRpcProvider({ url: rpcUrl });
    const account = (id: string, key: KeyPairString) =>
      new Account(id, provider, KeyPairSigner.fromSecretKey(key));
    root = account(ready.accounts[0].accountId, ready.accounts[0].secretKey);
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

    const { chromium } = await import('playwright-core');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    page.setDefaultTimeout(WAIT.timeout);
    console.log(`# explorer screenshots: ${ARTIFACTS}`);
  });

  after(async () => {
    await browser?.close();
    if (child && child.exitCode === null) {
      await new Promise<void>((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      });
    }
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

  it('the signer’s request and answer, with the derived address', async () => {
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
    const expected = evmAddress(derivedPublicKey(rootKey, agentContract, 'ethereum-1', 0));
    const addresses = await page.$$eval('[data-evm]', (els) => els.map((e) => e.textContent));
    assert.deepEqual(addresses, [expected]);
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
