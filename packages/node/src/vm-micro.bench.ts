/**
 * The VM's per-call cost, measured without HTTP: an in-memory node in this process, then N runs of
 *   - near-hello `hello({"name": "n<k>"})` (5,000 distinct args in turn) through the RPC's `viewCall`,
 *   - near-hello `getValue()` (a storage read) through `viewCall`,
 *   - NEAR's signer 3.13.0 (`SHADEBOX_BENCH_SIGNER_WASM`, default ../shared/corpus/mpc/signer-3_13_0.wasm):
 *     its `public_key({"domain_id": 0})` view, and its `respond` replayed: one real `sign` request is answered
 *     by the responder, then the `respond` call it sent runs again through `runContract` on the state just
 *     before it ran (the request still pending), the writes dropped each time.
 * Prints µs per call (wall and process CPU). Not a test: run it on an idle machine, e.g.
 *   node --import tsx packages/node/src/vm-micro.bench.ts [--n 5000] [--rounds 5] [--only hello,getValue,signerView,respond]
 *   node --cpu-prof --cpu-prof-dir bench/results/profiles --import tsx packages/node/src/vm-micro.bench.ts --only hello
 * (then `node --import tsx bench/profile-summary.ts <file>`).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { KeyPool, RpcClient, sendTransaction, viewFunction } from '@shadebox/near-client';
import { fullAccessKey, KeyPair, ONE_NEAR, parsePublicKey, TGAS } from '@shadebox/primitives';
import { startChainSignaturesOn } from '../../cli/src/chain-signatures/service.js';
import { silentLogger } from './logger.js';
import { viewCall } from './rpc/methods/view-call.js';
import { accountContractCode } from './runtime/account-contract-code.js';
import { contractExternal } from './runtime/contract-external.js';
import { startNode } from './start-node.js';
import { accountKey } from './state/state-keys.js';
import { getAccount } from './state/typed-state.js';
import { runContract } from './vm/run-contract.js';

const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: '5000' },
    only: { type: 'string', default: 'hello,getValue,signerView,respond' },
    rounds: { type: 'string', default: '5' },
  },
});
const N = Number(values.n);
const ROUNDS = Number(values.rounds);
const only = new Set(values.only.split(','));
const SIGNER_WASM =
  process.env.SHADEBOX_BENCH_SIGNER_WASM ??
  join(REPO_ROOT, '..', 'shared', 'corpus', 'mpc', 'signer-3_13_0.wasm');
const utf8 = (s: string) => new TextEncoder().encode(s);

/** Runs `op(i)` n times after n/10 warm-up runs, `--rounds` times; µs per call (wall and process CPU, user +
 * system) of the fastest round and the median round, by wall time (a loaded machine slows some rounds). */
function measure(name: string, n: number, op: (i: number) => void): void {
  for (let i = 0; i < Math.max(50, n / 10); i++) op(i);
  const rounds: { wall: number; cpu: number }[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < n; i++) op(i);
    const wall = ((performance.now() - t0) * 1000) / n;
    const c = process.cpuUsage(cpu0);
    rounds.push({ wall, cpu: (c.user + c.system) / n });
  }
  rounds.sort((a, b) => a.wall - b.wall);
  const median = rounds[Math.floor(rounds.length / 2)];
  const f = (x: number) => x.toFixed(1).padStart(7);
  console.log(
    `${name.padEnd(32)} best ${f(rounds[0].wall)} µs wall ${f(rounds[0].cpu)} µs CPU | median ${f(median.wall)} µs wall ${f(median.cpu)} µs CPU  (${ROUNDS} × ${n})`,
  );
}

const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger });
const chain = node.chain;
const g = node.accounts[0];
const rpc = new RpcClient(node.rpcUrl);
const root = new KeyPool(rpc, g.accountId, [KeyPair.fromString(g.secretKey)]);

async function send(pool: KeyPool, receiverId: string, actions: Parameters<KeyPool['sign']>[1]) {
  const outcome = await pool.send(receiverId, actions, { waitUntil: 'FINAL' });
  if (outcome.status?.SuccessValue === undefined) throw new Error(JSON.stringify(outcome.status));
  return outcome;
}

/** A view through the RPC's own entry (`query call_function` minus HTTP and JSON). */
function viewAt(accountId: string, method: string, args: Uint8Array) {
  const block = chain.blockByHeight(chain.finalHeight('final'))!;
  const accountBytes = chain.stateValue(accountKey(accountId), block.height)!;
  return viewCall(chain, block, accountId, accountBytes, method, args);
}

try {
  if (only.has('hello') || only.has('getValue')) {
    const hello = `hello.${g.accountId}`;
    const key = KeyPair.fromRandom('ed25519');
    await send(root, hello, [
      { type: 'CreateAccount' },
      { type: 'Transfer', deposit: 10n * ONE_NEAR },
      { type: 'AddKey', publicKey: key.publicKey, accessKey: fullAccessKey() },
      {
        type: 'DeployContract',
        code: new Uint8Array(readFileSync(join(REPO_ROOT, 'node_modules/near-hello/dist/main.wasm'))),
      },
    ]);
    await send(root, hello, [
      {
        type: 'FunctionCall',
        methodName: 'setValue',
        args: utf8('{"value":"bench"}'),
        gas: 30n * TGAS,
        deposit: 0n,
      },
    ]);
    const bodies = Array.from({ length: 5000 }, (_, k) => utf8(JSON.stringify({ name: `n${k}` })));
    const check = viewAt(hello, 'hello', bodies[7]);
    if (!('result' in check)) throw new Error(`hello failed: ${JSON.stringify(check)}`);
    if (only.has('hello'))
      measure('near-hello hello (view)', N, (i) => viewAt(hello, 'hello', bodies[i % 5000]));
    const empty = utf8('{}');
    const value = viewAt(hello, 'getValue', empty);
    if (!('result' in value) || Buffer.from(value.result).toString() !== '"bench"')
      throw new Error(`getValue answered ${JSON.stringify(value)}`);
    if (only.has('getValue'))
      measure('near-hello getValue (view)', N, () => viewAt(hello, 'getValue', empty));
  }

  if ((only.has('signerView') || only.has('respond')) && existsSync(SIGNER_WASM)) {
    const cs = await startChainSignaturesOn(node, {
      log: silentLogger,
      signerWasm: readFileSync(SIGNER_WASM),
    });
    try {
      const signer = cs.mpcContractId;
      const pk = await viewFunction(rpc, signer, 'public_key', { domain_id: 0 });
      if (pk !== cs.publicKeys.secp256k1) throw new Error(`public_key answered ${pk}`);
      if (only.has('signerView')) {
        const args = utf8('{"domain_id":0}');
        measure('signer 3.13.0 public_key (view)', Math.min(N, 1000), () =>
          viewAt(signer, 'public_key', args),
        );
      }
      if (only.has('respond')) await replayRespond(signer, cs.responderAccountId, await signOnce(signer));
    } finally {
      await cs.stop();
    }
  } else if (only.has('signerView') || only.has('respond')) {
    console.log(`signer rows skipped: ${SIGNER_WASM} is not on this machine`);
  }
} finally {
  await node.stop();
}

/** One `sign` from test.near, answered by the responder; the height its transaction was included at. */
async function signOnce(signer: string): Promise<number> {
  const payload = Buffer.from(KeyPair.fromRandom('ed25519').publicKey.data).toString('hex');
  const request = { path: 'vm-micro', payload_v2: { Ecdsa: payload }, domain_id: 0 };
  // A new pool: the chain-signature setup used test.near's key since.
  const pool = new KeyPool(rpc, g.accountId, [KeyPair.fromString(g.secretKey)]);
  const signed = await pool.sign(signer, [
    {
      type: 'FunctionCall',
      methodName: 'sign',
      args: utf8(JSON.stringify({ request })),
      gas: 50n * TGAS,
      deposit: 1n,
    },
  ]);
  const outcome = await sendTransaction(rpc, signed.bytes, 'EXECUTED');
  if (outcome.status?.SuccessValue === undefined)
    throw new Error(`sign failed: ${JSON.stringify(outcome.status)}`);
  const block = await rpc.call<{ header: { height: number } }>('block', {
    block_id: outcome.transaction_outcome.block_hash,
  });
  return block.header.height;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON-RPC answers
type Json = any;

/** Finds the responder's `respond` transaction after `from` and runs its call again, N times. */
async function replayRespond(signer: string, responder: string, from: number): Promise<void> {
  const head = chain.finalHeight('optimistic');
  for (let h = from; h <= head; h++) {
    const block = await rpc.call<Json>('block', { block_id: h }).catch(() => undefined);
    if (!block) continue;
    for (const c of block.chunks) {
      const chunk = await rpc.call<Json>('chunk', { chunk_id: c.chunk_hash });
      for (const tx of chunk.transactions) {
        const call = tx.actions[0]?.FunctionCall;
        if (tx.signer_id !== responder || tx.receiver_id !== signer || call?.method_name !== 'respond')
          continue;
        // The receipt runs in the next block, on the state this block left.
        const at = chain.blockByHeight(h + 1)!;
        const input = Buffer.from(call.args, 'base64');
        const run = () => {
          const state = chain.stateAt(h);
          const account = getAccount(state, signer)!;
          const contract = accountContractCode(state, 0, signer, account)!;
          return runContract({
            codeHash: contract.codeHash,
            code: contract.code,
            method: 'respond',
            context: {
              currentAccountId: signer,
              signerAccountId: responder,
              signerAccountPk: parsePublicKey(tx.public_key),
              predecessorAccountId: responder,
              input,
              promiseResults: [],
              blockHeight: BigInt(at.height),
              blockTimestamp: BigInt(at.timestampNs),
              epochHeight: 0n,
              accountBalance: account.amount,
              accountLockedBalance: account.locked,
              storageUsage: account.storageUsage,
              attachedDeposit: 0n,
              prepaidGas: BigInt(call.gas),
              randomSeed: new Uint8Array(32),
              isView: false,
              outputDataReceiverCount: 0,
              chainId: chain.params.chainId,
            },
            config: chain.params.vm.config,
            ext: contractExternal(state, signer, chain.validatorStakes()),
            actionHash: new Uint8Array(32),
            cache: chain.params.vm.cache,
          });
        };
        // The first calls, as a node that just deployed the signer makes them: V8 compiles the contract's
        // functions on first use (Liftoff) and optimises the hot ones later (TurboFan).
        const firsts: number[] = [];
        for (let i = 0; i < 30; i++) {
          const cpu0 = process.cpuUsage();
          const out = run();
          const c = process.cpuUsage(cpu0);
          if (out.error) throw new Error(`respond replay failed: ${out.error.debug()}`);
          if (i === 0) console.log(`  respond burns ${(Number(out.burntGas) / 1e12).toFixed(2)} Tgas`);
          firsts.push((c.user + c.system) / 1000);
        }
        const ms = (xs: number[]) => xs.reduce((a, b) => a + b, 0).toFixed(1);
        console.log(
          `  respond's first calls, CPU ms: 1st ${firsts[0].toFixed(1)}, 2nd-10th ${ms(firsts.slice(1, 10))}, 11th-30th ${ms(firsts.slice(10))}`,
        );
        measure('signer 3.13.0 respond (call)', Math.min(N, 200), run);
        return;
      }
    }
  }
  throw new Error('no respond transaction found');
}
