/**
 * End to end: a node at protocol 87 (nearcore 2.14, as testnet) beside one at 86 (mainnet). At 87
 * `EXPERIMENTAL_protocol_config` is nearcore 2.14's view of 87 (the test vector of the config tests), and a
 * transaction calling an empty method name is refused at admission with
 * `ActionsValidation: FunctionCallEmptyMethodName`; at 86 the same transaction is admitted.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { ONE_NEAR, TGAS } from '@shadebox/primitives';
import type { Json } from './support/raw-rpc.js';
import { rpc } from './support/rpc-calls.js';
import { startTestNode, type TestNode } from './support/test-node.js';
import { sendTx } from './support/transactions.js';

const VECTOR = new URL(
  '../packages/node/src/config/test-vectors/runtime-config-view-87.json',
  import.meta.url,
);

/** The `data` of a refused send_tx, or undefined when it was accepted. */
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: { error?: Json }) => e.error?.data,
  );

describe('protocol 87 beside 86', () => {
  let at87: TestNode;
  let at86: TestNode;
  before(async () => {
    at87 = await startTestNode({ protocolVersion: 87 });
    at86 = await startTestNode({ protocolVersion: 86 });
  });
  after(async () => {
    await at87?.stop();
    await at86?.stop();
  });

  it('status and EXPERIMENTAL_protocol_config name the version; 87 shows nearcore 2.14 view', async () => {
    assert.equal((await rpc(at87.url, 'status', [])).protocol_version, 87);
    assert.equal((await rpc(at86.url, 'status', [])).protocol_version, 86);
    const config = await rpc(at87.url, 'EXPERIMENTAL_protocol_config', { finality: 'final' });
    assert.equal(config.protocol_version, 87);
    const expected = JSON.parse(readFileSync(VECTOR, 'utf8'));
    delete expected._source;
    const wasm: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(expected.wasm_config)) {
      wasm[key] = value;
      if (key === 'linear_op_unit_cost') wasm.vm_kind = 'Wasmtime';
      if (key === 'discard_custom_sections') wasm.saturating_float_to_int = true;
    }
    expected.wasm_config = wasm;
    // Values and fields (the order is held by the config unit tests; this client reorders keys).
    assert.deepEqual(config.runtime_config, expected);
    const at86Config = await rpc(at86.url, 'EXPERIMENTAL_protocol_config', { finality: 'final' });
    assert.deepEqual(at86Config.runtime_config.transaction_costs.burnt_gas_reward, [3, 10]);
  });

  it('an empty method name: refused at admission at 87, admitted at 86', async () => {
    const tx = (t: TestNode) =>
      sendTx(t.url, {
        signerId: t.rootId,
        key: t.rootSigner.key,
        receiverId: t.rootId,
        actions: [
          { type: 'FunctionCall', methodName: '', args: new Uint8Array(), gas: 10n * TGAS, deposit: 0n },
        ],
      });
    assert.deepEqual(await refusal(tx(at87)), {
      TxExecutionError: { InvalidTxError: { ActionsValidation: 'FunctionCallEmptyMethodName' } },
    });
    const admitted = await tx(at86);
    assert.ok(admitted.transaction_outcome, JSON.stringify(admitted));
    // A plain transfer goes through at both.
    for (const t of [at86, at87]) {
      const r = await sendTx(t.url, {
        signerId: t.rootId,
        key: t.rootSigner.key,
        receiverId: t.rootId,
        actions: [{ type: 'Transfer', deposit: ONE_NEAR }],
      });
      assert.ok('SuccessValue' in r.status, JSON.stringify(r.status));
    }
  });
});
