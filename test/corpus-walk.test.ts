/**
 * End to end: the whole contract corpus (`../shared/corpus/`, 126 real NEAR contracts listed in its
 * MANIFEST.md and analysis.json) on one real node. Every contract is deployed with a DeployContract
 * transaction (the few whose transaction would exceed `max_transaction_size` are written with
 * `sandbox_patch_state`), then every exported method is called as a view: the answer may be a value, a panic,
 * a ProhibitedInView or anything else, but never a link or compilation error, so every import the contract
 * makes is one the node links.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR as NEAR } from '@shadebox/primitives';
import { rpcRaw } from './support/raw-rpc.js';
import { keyNonce, rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { buildTx } from './support/transactions.js';

const CORPUS = join(process.cwd(), '..', 'shared', 'corpus');

interface CorpusEntry {
  file: string;
  size: number;
  exports: string[];
  imports: string[];
}

/** storage_amount_per_byte (10^19 yoctoNEAR) times the code, plus room for the account itself. */
const fundingFor = (size: number) => BigInt(size) * 10n ** 19n + 2n * NEAR;
const MAX_TX_SIZE = 1_572_864;
const VIEW_CONCURRENCY = 8;

function wasmFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) wasmFiles(path, out);
    else if (name.endsWith('.wasm')) out.push(relative(CORPUS, path));
  }
  return out;
}

/** Runs `work` over `items`, `limit` at a time. */
async function inBatches<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: limit }, worker));
}

describe('the contract corpus: every contract deploys and every export links', {
  skip: !existsSync(CORPUS),
}, () => {
  let t: TestNode;
  let corpus: CorpusEntry[];
  const accountOf = new Map<string, string>();

  before(async () => {
    corpus = JSON.parse(readFileSync(join(CORPUS, 'analysis.json'), 'utf8'));
    // Preparing a large contract at its deploy takes seconds on a loaded machine: wait for it.
    t = await startTestNode({ txTimeoutMs: 600_000 });
    const root = t.rootSigner;
    let nonce = await keyNonce(t.url, root.accountId, root.key.publicKeyString);
    const patched: unknown[] = [];
    for (const [i, entry] of corpus.entries()) {
      const accountId = `c${i}.${root.accountId}`;
      accountOf.set(entry.file, accountId);
      const code = new Uint8Array(readFileSync(join(CORPUS, entry.file)));
      const amount = fundingFor(code.length);
      if (code.length + 1024 > MAX_TX_SIZE) {
        // Too big for one transaction (nearcore would refuse it too): written into state instead.
        patched.push(
          { Account: { account_id: accountId, account: { amount: amount.toString(), locked: '0' } } },
          { Contract: { account_id: accountId, code: Buffer.from(code).toString('base64') } },
        );
        continue;
      }
      nonce += 1n;
      const tx = await buildTx(t.url, {
        signerId: root.accountId,
        key: root.key,
        receiverId: accountId,
        nonce,
        actions: [
          { type: 'CreateAccount' },
          { type: 'Transfer', deposit: amount },
          { type: 'DeployContract', code },
        ],
      });
      const answer = await rpc(t.url, 'send_tx', { signed_tx_base64: tx.base64, wait_until: 'FINAL' });
      assert.deepEqual(answer.status, { SuccessValue: '' }, `deploying ${entry.file}`);
    }
    if (patched.length > 0)
      assert.deepEqual(await rpc(t.url, 'sandbox_patch_state', { records: patched }), {});
  });

  after(() => t?.stop());

  it('analysis.json lists every .wasm file of the corpus', () => {
    assert.deepEqual(corpus.map((e) => e.file).sort(), wasmFiles(CORPUS).sort());
  });

  it('every exported method of every contract answers a view with anything but a link or compilation error', async () => {
    const failures: string[] = [];
    const linkErrors = new Map<string, string[]>();
    const calls = corpus.flatMap((entry) => entry.exports.map((method) => ({ entry, method })));
    await inBatches(calls, VIEW_CONCURRENCY, async ({ entry, method }) => {
      const answer = await rpcRaw(t.url, 'query', {
        request_type: 'call_function',
        finality: 'optimistic',
        account_id: accountOf.get(entry.file),
        method_name: method,
        args_base64: Buffer.from('{}').toString('base64'),
      });
      const text = JSON.stringify(answer);
      if (/LinkError|CompilationError|PrepareError/.test(text)) {
        const list = linkErrors.get(entry.file) ?? [];
        list.push(`${method}: ${text.slice(0, 400)}`);
        linkErrors.set(entry.file, list);
      } else if (
        answer.error &&
        !/wasm execution failed|ContractExecutionError|CONTRACT_EXECUTION/i.test(text)
      ) {
        // Anything that is not the contract's own answer (an unknown account, a node error) is a failure too.
        failures.push(`${entry.file} ${method}: ${text.slice(0, 400)}`);
      }
    });
    for (const entry of corpus) {
      const errors = linkErrors.get(entry.file);
      if (errors) {
        failures.push(
          `${entry.file}: ${errors.length} of ${entry.exports.length} exports fail: ${errors[0]}`,
        );
      }
    }
    assert.deepEqual(failures, []);
  });
});
