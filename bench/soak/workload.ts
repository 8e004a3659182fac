/**
 * The soak's load: four kinds of operation started at a steady rate, each kind on its own schedule.
 *
 * - transfer: 1–1,000 yoctoNEAR between the soak's accounts `soak-t<i>.<root>`, each signing through a
 *   near-client `KeyPool` of several keys; `send_tx` to `EXECUTED_OPTIMISTIC`, must succeed.
 * - call: near-hello's `setValue({"value": <distinct>})` (30 Tgas) on `soak-hello.<root>` from the accounts
 *   `soak-c<i>.<root>` (key pools too); must succeed.
 * - view: in turn `query call_function hello({"name": "n<k>"})` (must return bytes) and `query view_account`
 *   of a soak account (must exist), at `finality: "final"`.
 * - sign: `POST {agentApiUrl}/call {"methodName": "request_signature", "args": {"path", "payload": <32
 *   random bytes as hex>, "key_type": "Ecdsa"}}` through plain fetch; the answer must be HTTP 200 with a
 *   Secp256k1 signature that recovers to the key derived for (agent contract, path).
 *
 * A kind keeps at most `inFlight` operations running; when that many are in flight at a start time the
 * start is skipped and counted (the load is open-loop, so a slow stack shows as latency, then as skips).
 * Every transaction answered with an outcome is "accepted" and kept (hash, signer) for the end check.
 */
import { readFileSync } from 'node:fs';
import { derivedPublicKey, najToSecp256k1PublicKey, recoverEcdsaPublicKey } from '@shadebox/mpc';
import { KeyPool, type Outcome, viewAccount, viewFunction } from '@shadebox/near-client';
import { type Action, fullAccessKey, hexEncode, KeyPair, ONE_NEAR, TGAS } from '@shadebox/primitives';
import { sleep } from '../load.js';
import { parseEcdsaSignatureResponse } from '../metrics/agent.js';
import { NEAR_HELLO_WASM, rootSigner, sendFinal, viewString } from '../near-signers.js';
import type { PooledRpcClient } from '../rpc.js';
import type { IntervalRecorder, Kind } from './interval-stats.js';
import type { SeededRandom } from './random.js';
import type { SoakStack } from './stack.js';

/** Share of the rate and most operations in flight, per kind. */
export const KIND_PLAN: Record<Kind, { share: number; inFlight: number }> = {
  transfer: { share: 0.35, inFlight: 16 },
  call: { share: 0.25, inFlight: 16 },
  view: { share: 0.3, inFlight: 16 },
  sign: { share: 0.1, inFlight: 4 },
};
const ACCOUNTS_PER_KIND = 4;
const KEYS_PER_ACCOUNT = 4;
const CALL_GAS = 30n * TGAS;
const SIGN_PATH = 'soak';
/**
 * What the soak adds to the agent account before the load. `shadebox up` funds it with 0.3 NEAR and each
 * request_signature burns gas (about 0.001 NEAR) and prepays 100 Tgas until its refund; a 30-minute run at
 * the default rate makes thousands of requests.
 */
export const AGENT_TOP_UP = 100n * ONE_NEAR;

export interface AcceptedTx {
  hash: string;
  signerId: string;
  kind: Kind;
}

export interface Workload {
  /** Every account the soak created (for the balance check; the agent account and contracts are found on chain). */
  accounts: string[];
  accepted: AcceptedTx[];
  /** Signatures answered and verified. */
  verifiedSignatures: number;
  run(durationMs: number, rate: number): Promise<{ abandoned: number }>;
}

async function createPooledAccount(
  client: PooledRpcClient,
  funder: KeyPool,
  accountId: string,
  extra: Action[] = [],
): Promise<KeyPool> {
  const keys = Array.from({ length: KEYS_PER_ACCOUNT }, () => KeyPair.fromRandom('ed25519'));
  const outcome = await sendFinal(funder, accountId, [
    { type: 'CreateAccount' },
    { type: 'Transfer', deposit: 1000n * ONE_NEAR },
    ...keys.map((k): Action => ({ type: 'AddKey', publicKey: k.publicKey, accessKey: fullAccessKey() })),
    ...extra,
  ]);
  const pool = new KeyPool(client, accountId, keys);
  pool.useBlockHash(outcome.transaction_outcome.block_hash);
  return pool;
}

function checkSuccess(outcome: Outcome, what: string): void {
  if (outcome.status?.SuccessValue === undefined) {
    throw new Error(`${what} failed: ${JSON.stringify(outcome.status).slice(0, 300)}`);
  }
}

export async function prepareWorkload(
  stack: SoakStack,
  client: PooledRpcClient,
  recorder: IntervalRecorder,
  random: SeededRandom,
  seed: number,
): Promise<Workload> {
  const root = stack.root;
  const funder = rootSigner(client, root);
  const hello = `soak-hello.${root.accountId}`;
  await createPooledAccount(client, funder, hello, [
    { type: 'DeployContract', code: new Uint8Array(readFileSync(NEAR_HELLO_WASM)) },
  ]);
  const senders: KeyPool[] = [];
  const callers: KeyPool[] = [];
  for (let i = 0; i < ACCOUNTS_PER_KIND; i++) {
    senders.push(await createPooledAccount(client, funder, `soak-t${i}.${root.accountId}`));
    callers.push(await createPooledAccount(client, funder, `soak-c${i}.${root.accountId}`));
  }
  await sendFinal(funder, stack.agentAccountId, [{ type: 'Transfer', deposit: AGENT_TOP_UP }]);
  const rootKey = await viewString(client, stack.mpcContractId, 'public_key', { domain_id: 0 });
  const derived = hexEncode(
    najToSecp256k1PublicKey(derivedPublicKey(rootKey, stack.agentContractId, SIGN_PATH, 0)),
  );
  const accounts = [hello, ...senders.map((s) => s.accountId), ...callers.map((c) => c.accountId)];
  const accepted: AcceptedTx[] = [];
  let calls = 0;
  let views = 0;
  const workload: Workload = {
    accounts,
    accepted,
    verifiedSignatures: 0,
    run: async () => ({ abandoned: 0 }),
  };

  const operations: Record<Kind, () => Promise<void>> = {
    transfer: async () => {
      const from = random.below(senders.length);
      const to = (from + 1 + random.below(senders.length - 1)) % senders.length;
      const deposit = BigInt(1 + random.below(1000));
      const outcome = await senders[from].send(senders[to].accountId, [{ type: 'Transfer', deposit }], {
        waitUntil: 'EXECUTED_OPTIMISTIC',
      });
      accepted.push({ hash: outcome.transaction.hash, signerId: senders[from].accountId, kind: 'transfer' });
      checkSuccess(outcome, 'transfer');
    },
    call: async () => {
      const caller = callers[random.below(callers.length)];
      const value = `s${seed}-${calls++}`;
      const outcome = await caller.send(
        hello,
        [
          {
            type: 'FunctionCall',
            methodName: 'setValue',
            args: new TextEncoder().encode(JSON.stringify({ value })),
            gas: CALL_GAS,
            deposit: 0n,
          },
        ],
        { waitUntil: 'EXECUTED_OPTIMISTIC' },
      );
      accepted.push({ hash: outcome.transaction.hash, signerId: caller.accountId, kind: 'call' });
      checkSuccess(outcome, 'setValue');
    },
    view: async () => {
      if (views++ % 2 === 0) {
        const name = `n${random.below(5000)}`;
        const greeting = await viewFunction(client, hello, 'hello', { name }, { finality: 'final' });
        if (typeof greeting !== 'string')
          throw new Error(`hello(${name}) answered ${JSON.stringify(greeting)}`);
        if (!greeting.includes(name)) throw new Error(`hello(${name}) answered ${greeting}`);
      } else {
        const id = accounts[random.below(accounts.length)];
        const account = await viewAccount(client, id, { finality: 'final' });
        if (!account) throw new Error(`view_account: ${id} does not exist`);
      }
    },
    sign: async () => {
      const payload = random.bytes(32);
      const res = await fetch(`${stack.agentApiUrl}/call`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          methodName: 'request_signature',
          args: { path: SIGN_PATH, payload: hexEncode(payload), key_type: 'Ecdsa' },
        }),
      });
      const text = await res.text();
      if (res.status !== 200)
        throw new Error(`/call request_signature: HTTP ${res.status}: ${text.slice(0, 300)}`);
      const recovered = recoverEcdsaPublicKey(parseEcdsaSignatureResponse(text), payload);
      if (!recovered || hexEncode(recovered) !== derived) {
        throw new Error('the signature does not recover to the key derived for (agent contract, path)');
      }
      workload.verifiedSignatures++;
    },
  };

  workload.run = async (durationMs, rate) => {
    const start = performance.now();
    const end = start + durationMs;
    const running = new Set<Promise<void>>();
    const schedule = async (kind: Kind) => {
      const { share, inFlight } = KIND_PLAN[kind];
      const intervalMs = 1000 / (rate * share);
      let inFlightNow = 0;
      // Start times are fixed from the start (n × interval), so a late timer does not slow the rate down.
      for (let n = 0; ; n++) {
        const due = start + n * intervalMs;
        if (due >= end) break;
        const wait = due - performance.now();
        if (wait > 0) await sleep(wait);
        if (inFlightNow >= inFlight) {
          recorder.skipped(kind);
          continue;
        }
        inFlightNow++;
        const t0 = performance.now();
        const op = operations[kind]()
          .then(
            () => recorder.succeeded(kind, performance.now() - t0),
            (error) => recorder.failed(kind, error),
          )
          .finally(() => {
            inFlightNow--;
            running.delete(op);
          });
        running.add(op);
      }
    };
    await Promise.all((Object.keys(KIND_PLAN) as Kind[]).map(schedule));
    // What is still in flight gets two minutes to answer (send_tx and /call have their own timeouts).
    const drained = await Promise.race([
      Promise.all([...running]).then(() => true),
      sleep(120_000).then(() => false),
    ]);
    return { abandoned: drained ? 0 : running.size };
  };
  return workload;
}
