/**
 * Making blocks without HTTP, the way `npm run bench`'s writes make them: an in-memory chain in this process
 * with its garbage collector, 64 accounts, then rounds of one block of K transfers (32 senders to 32 receivers,
 * pre-signed) and two empty blocks (what finality waits for), then empty blocks alone (`--store lmdb`: on an
 * LMDB store in a temporary directory, as a node with a home runs). Prints µs per block of
 * each (wall and process CPU) and the heap after. Not a test: run it on an idle machine, under the node's own
 * V8 flags, and compare two checkouts by running each in turn (the machine's speed drifts; alternate and take
 * the best of several), e.g.
 *   node --max-semi-space-size=2 --no-parallel-scavenge --no-concurrent-array-buffer-sweeping \
 *     --conditions=source --import tsx packages/node/src/chain/block-production.bench.ts [--rounds 500] [--k 4] \
 *     [--store memory|lmdb]
 * Add `--cpu-prof --cpu-prof-dir bench/results/profiles` for a profile (bench/profile-summary.ts reads it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import {
  base58Decode,
  createTransaction,
  encodeSignedTransaction,
  KeyPair,
  signTransaction,
  transactionHash,
} from '@shadebox/primitives';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import type { PendingTransaction } from '../runtime/apply-chunk.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { openLmdbStore } from '../store/lmdb-store.js';
import { openMemoryStore } from '../store/memory-store.js';
import { Chain } from './chain.js';
import { DEFAULT_MEMORY_HISTORY_BUDGET_BYTES, GarbageCollector } from './garbage-collector.js';

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '500' },
    k: { type: 'string', default: '4' },
    store: { type: 'string', default: 'memory' },
  },
});
if (values.store !== 'memory' && values.store !== 'lmdb') throw new Error('--store is memory or lmdb');
const lmdbDir = values.store === 'lmdb' ? mkdtempSync(join(tmpdir(), 'shadebox-block-bench-')) : undefined;
process.on('exit', () => {
  if (lmdbDir) rmSync(lmdbDir, { recursive: true, force: true });
});
const ROUNDS = Number(values.rounds);
const K = Number(values.k);
const WARMUP_ROUNDS = 100;
const ACCOUNTS = 64;

function print(line: string): void {
  process.stdout.write(`${line}\n`);
}

const home = createEphemeralHome({});
const chain = new Chain({
  store: lmdbDir ? openLmdbStore(lmdbDir) : openMemoryStore(),
  genesis: home.genesis,
  params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
  validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
  validatorAccountId: home.validatorKey.account_id,
});
// As `shadebox node` runs it (with `--memory`, history bounded by bytes).
new GarbageCollector(chain, {
  numEpochsToKeep: 3,
  mode: 'delete',
  historyBudgetBytes: lmdbDir ? 0 : DEFAULT_MEMORY_HISTORY_BUDGET_BYTES,
}).start();

const key = KeyPair.fromString(home.validatorKey.secret_key);
const nonces = new Map<string, bigint>();
function tx(
  signer: string,
  receiver: string,
  actions: Parameters<typeof createTransaction>[0]['actions'],
): PendingTransaction {
  const nonce = (nonces.get(signer) ?? 0n) + 1n;
  nonces.set(signer, nonce);
  const transaction = createTransaction({
    signerId: signer,
    publicKey: key.publicKey,
    nonce,
    receiverId: receiver,
    blockHash: base58Decode(chain.head.hash),
    actions,
  });
  const signedTransaction = signTransaction(transaction, key);
  return {
    signedTransaction,
    hash: transactionHash(transaction),
    size: encodeSignedTransaction(signedTransaction).length,
  };
}

// The accounts, each with the validator's key (its nonce starts at the block height that added it, times 1e6).
const validator = chain.validatorAccountId;
const accounts = Array.from({ length: ACCOUNTS }, (_, i) => `a${i}.${validator}`);
nonces.set(validator, BigInt(chain.head.height) * 1_000_000n);
for (let i = 0; i < ACCOUNTS; i += 8) {
  const made = chain.produceBlock(
    accounts.slice(i, i + 8).map((account) =>
      tx(validator, account, [
        { type: 'CreateAccount' },
        { type: 'Transfer', deposit: 10n ** 26n },
        {
          type: 'AddKey',
          publicKey: key.publicKey,
          accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
        },
      ]),
    ),
  );
  if (made.dropped.length > 0) throw new Error(`account setup dropped ${made.dropped.length} transactions`);
}
for (let i = 0; i < 3; i++) chain.produceBlock([]);
for (const account of accounts) nonces.set(account, BigInt(chain.head.height - 1) * 1_000_000n);

// Transfers signed before the clock starts: a round's block carries K of them.
let next = 0;
const rounds: PendingTransaction[][] = Array.from({ length: ROUNDS + WARMUP_ROUNDS }, () =>
  Array.from({ length: K }, () => {
    const i = next++;
    return tx(accounts[i % 32], accounts[32 + ((i * 7) % 32)], [{ type: 'Transfer', deposit: 1n }]);
  }),
);

function measure(label: string, blocks: number, run: () => void): void {
  const cpu = process.cpuUsage();
  const start = performance.now();
  run();
  const wall = performance.now() - start;
  const used = process.cpuUsage(cpu);
  print(
    `${label}: ${((wall * 1000) / blocks).toFixed(0)} µs/block wall, ` +
      `${((used.user + used.system) / blocks).toFixed(0)} µs/block CPU (${blocks} blocks)`,
  );
}

function transferRounds(from: number, to: number): void {
  for (let r = from; r < to; r++) {
    const made = chain.produceBlock(rounds[r]);
    if (made.dropped.length > 0) throw new Error(`round ${r} dropped ${made.dropped.length} transactions`);
    chain.produceBlock([]);
    chain.produceBlock([]);
  }
}

transferRounds(0, WARMUP_ROUNDS);
measure(`${K} transfers + 2 empty blocks`, ROUNDS * 3, () =>
  transferRounds(WARMUP_ROUNDS, WARMUP_ROUNDS + ROUNDS),
);
measure('empty blocks', ROUNDS * 3, () => {
  for (let i = 0; i < ROUNDS * 3; i++) chain.produceBlock([]);
});
const memory = process.memoryUsage();
const mib = (bytes: number) => (bytes / 2 ** 20).toFixed(1);
print(`heap used ${mib(memory.heapUsed)} MiB of ${mib(memory.heapTotal)} MiB, RSS ${mib(memory.rss)} MiB`);
