/**
 * The RPC's cost of one `query call_function` view of metric 5's kv workload (bench/metrics/view-workload.ts),
 * measured in this process without HTTP: an in-memory node, the kv contract deployed and filled with its
 * 32,768 entries, then the exact request bodies of the benchmark answered in turn through the node's
 * in-process JSON-RPC (`RunningNode.fetch`: the read cache, parsing, the block, the account, the contract, the
 * answer's text; views on this thread), every answer checked. Prints µs per view (wall and process CPU). Not a
 * test: run it on an idle machine, e.g.
 *   node --import tsx bench/kv-view-profile.ts [--n 32768] [--rounds 5]
 *   node --cpu-prof --cpu-prof-dir bench/results/profiles --import tsx packages/node/src/rpc/kv-view.bench.ts
 * (then `node --import tsx bench/profile-summary.ts <file>`).
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { parseArgs } from 'node:util';
import { KeyPool, RpcClient } from '@shadebox/near-client';
import { silentLogger, startNode } from '@shadebox/node';
import { fullAccessKey, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import {
  checkKvAnswer,
  FILL_BATCH,
  fillArgs,
  kvContractWasm,
  kvViewBody,
  VIEW_KEYS,
} from './metrics/view-workload.js';

const { values } = parseArgs({
  options: {
    n: { type: 'string', default: String(VIEW_KEYS) },
    rounds: { type: 'string', default: '5' },
    profile: { type: 'string' },
  },
});
const N = Number(values.n);
const ROUNDS = Number(values.rounds);

const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger, viewWorkers: 0 });
try {
  const g = node.accounts[0];
  const rpc = new RpcClient(node.rpcUrl);
  const root = new KeyPool(rpc, g.accountId, [KeyPair.fromString(g.secretKey)]);
  const kv = `kv.${g.accountId}`;
  const send = async (actions: Parameters<KeyPool['sign']>[1]) => {
    const outcome = await root.send(kv, actions, { waitUntil: 'FINAL' });
    if (outcome.status?.SuccessValue === undefined) throw new Error(JSON.stringify(outcome.status));
  };
  await send([
    { type: 'CreateAccount' },
    { type: 'Transfer', deposit: 50n * ONE_NEAR },
    { type: 'AddKey', publicKey: KeyPair.fromRandom('ed25519').publicKey, accessKey: fullAccessKey() },
    { type: 'DeployContract', code: await kvContractWasm() },
  ]);
  for (let from = 0; from < VIEW_KEYS; from += FILL_BATCH) {
    await send([
      {
        type: 'FunctionCall',
        methodName: 'fill',
        args: fillArgs(from, Math.min(FILL_BATCH, VIEW_KEYS - from)),
        gas: 300n * TGAS,
        deposit: 0n,
      },
    ]);
  }
  const bodies = Array.from({ length: VIEW_KEYS }, (_, k) => kvViewBody(kv, k));
  let next = 0;
  const view = async (check: boolean) => {
    const k = next++ % VIEW_KEYS;
    const answer = await node.fetch('', { method: 'POST', body: bodies[k] });
    if (check) checkKvAnswer((await answer.json()).result, k);
  };
  for (let i = 0; i < VIEW_KEYS; i++) await view(true);
  const session = values.profile ? new Session() : undefined;
  if (session) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.start');
  }
  for (let r = 0; r < ROUNDS; r++) {
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await view(false);
    const wall = ((performance.now() - t0) * 1000) / N;
    const c = process.cpuUsage(cpu0);
    console.log(
      `kv get (query call_function, in process) ${wall.toFixed(1)} µs wall ${((c.user + c.system) / N).toFixed(1)} µs CPU  (${N} views)`,
    );
  }
  if (session) {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(values.profile!, JSON.stringify(profile));
    session.disconnect();
  }
} finally {
  await node.stop();
}
