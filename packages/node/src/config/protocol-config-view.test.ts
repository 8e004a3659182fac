import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { experimentalProtocolConfig, NearRpcClient } from '@near-js/jsonrpc-client';
import {
  JsonRpcResponseFor_RpcProtocolConfigResponseAnd_RpcErrorSchema,
  RpcProtocolConfigResponseSchema,
} from '@near-js/jsonrpc-types';
import { publicKeyToString } from '@shadebox/primitives';
import { testRandom } from '../../../../test/test-random.js';
import { createDefaultGenesis } from './genesis-defaults.js';
import {
  type JsonObject,
  type JsonValue,
  jsonNumber,
  protocolConfigView,
  runtimeConfigView,
} from './protocol-config-view.js';
import { loadRuntimeConfig } from './runtime-config.js';

const rng = testRandom('packages/node/src/config/protocol-config-view.test.ts');

const runtimeConfig = loadRuntimeConfig();
const validatorKey = {
  account_id: 'test.near',
  public_key: publicKeyToString(rng.keyPair('ed25519').publicKey),
};
const genesis = createDefaultGenesis({
  validatorKey,
  runtimeConfig,
  genesisTime: 1_700_000_000_123_456_000n,
});
const view = protocolConfigView(genesis, runtimeConfig);

/** What @near-js/jsonrpc-client does to a result before validating it (snake_case keys to camelCase). */
function toCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamel);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()),
      toCamel(v),
    ]),
  );
}

/** The same view through a JSON round trip, as a client receives it. */
function wire(value: JsonValue): JsonObject {
  return JSON.parse(JSON.stringify(value));
}

describe('protocolConfigView', () => {
  it('passes @near-js/jsonrpc-types RpcProtocolConfigResponseSchema', () => {
    const result = RpcProtocolConfigResponseSchema().safeParse(toCamel(wire(view)));
    assert.ok(result.success, result.success ? '' : JSON.stringify(result.error.issues, null, 2));
  });

  it('passes that schema at protocol 87 too (nearcore 2.14 view)', () => {
    const v87 = protocolConfigView(genesis, loadRuntimeConfig(87));
    assert.equal(v87.protocol_version, 87);
    const result = RpcProtocolConfigResponseSchema().safeParse(toCamel(wire(v87)));
    assert.ok(result.success, result.success ? '' : JSON.stringify(result.error.issues, null, 2));
  });

  it('passes the schema of the whole JSON-RPC response', () => {
    const response = { jsonrpc: '2.0', id: 'dontcare', result: toCamel(wire(view)) };
    const result = JsonRpcResponseFor_RpcProtocolConfigResponseAnd_RpcErrorSchema().safeParse(response);
    assert.ok(result.success, result.success ? '' : JSON.stringify(result.error.issues, null, 2));
  });

  it('is what the validating @near-js/jsonrpc-client accepts over HTTP', async () => {
    let body = '';
    const server: Server = createServer((req, res) => {
      body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const request = JSON.parse(body);
        res.setHeader('content-type', 'application/json');
        res.end(JSON.stringify({ jsonrpc: '2.0', id: request.id, result: view }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const client = new NearRpcClient({ endpoint: `http://127.0.0.1:${port}`, retries: 0 });
      const result = await experimentalProtocolConfig(client, { finality: 'final' });
      assert.equal(JSON.parse(body).method, 'EXPERIMENTAL_protocol_config');
      assert.equal(result.chainId, 'localnet');
      assert.equal(result.protocolVersion, 86);
      assert.equal(result.runtimeConfig.storageAmountPerByte, '10000000000000000000');
      assert.equal(
        result.runtimeConfig.transactionCosts.actionCreationConfig.transferCost.execution,
        115123062500,
      );
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('needs saturating_float_to_int for that schema (why the view carries it)', () => {
    const withoutIt = wire(view);
    const wasm = (withoutIt.runtime_config as JsonObject).wasm_config as JsonObject;
    delete wasm.saturating_float_to_int;
    assert.equal(RpcProtocolConfigResponseSchema().safeParse(toCamel(withoutIt)).success, false);
  });

  it('has the genesis/epoch fields with nearcore encodings', () => {
    assert.equal(view.protocol_version, 86);
    assert.equal(view.chain_id, 'localnet');
    assert.equal(view.genesis_time, '2023-11-14T22:13:20.123456Z');
    assert.equal(view.genesis_height, 0);
    assert.equal(view.epoch_length, 500);
    assert.equal(view.gas_limit, 1_000_000_000_000_000);
    assert.equal(view.min_gas_price, '100000000');
    assert.equal(view.max_gas_price, '10000000000000000000000');
    assert.equal(view.fishermen_threshold, '10000000000000000000000000');
    assert.equal(view.transaction_validity_period, 100);
    assert.equal(view.protocol_treasury_account, 'test.near');
    assert.deepEqual(view.gas_price_adjustment_rate, [1, 100]);
    assert.deepEqual(view.online_min_threshold, [9, 10]);
    assert.deepEqual(view.minimum_stake_ratio, [1, 6250]);
    assert.deepEqual(view.shard_layout, { V0: { num_shards: 1, version: 0 } });
    assert.equal(view.chunk_validator_only_kickout_threshold, 80);
    assert.equal(view.target_validator_mandates_per_shard, 68);
    assert.equal(view.shuffle_shard_assignment_for_chunk_producers, false);
    assert.equal(Object.keys(view).length, 33);
  });

  it('re-serialises genesis_time as nearcore does', () => {
    const padded = { ...genesis, genesis_time: '2024-01-01T02:00:00.000+02:00' };
    assert.equal(protocolConfigView(padded, runtimeConfig).genesis_time, '2024-01-01T00:00:00Z');
  });
});

describe('runtimeConfigView', () => {
  it('is nearcore RuntimeConfigView: the pinned snapshot plus vm_kind (redacted there) and saturating_float_to_int', () => {
    const pinned = JSON.parse(readFileSync(new URL('./parameters-pv85.json', import.meta.url), 'utf8'));
    delete pinned._source;
    const wasm: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(pinned.wasm_config)) {
      wasm[key] = value;
      if (key === 'linear_op_unit_cost') wasm.vm_kind = 'Wasmtime';
      if (key === 'discard_custom_sections') wasm.saturating_float_to_int = true;
    }
    pinned.wasm_config = wasm;
    // Same fields, values, encodings and order.
    assert.equal(JSON.stringify(runtimeConfigView(runtimeConfig)), JSON.stringify(pinned));
  });

  it('writes balances as strings and gas as numbers', () => {
    const v = runtimeConfigView(runtimeConfig);
    assert.equal(v.min_gas_purchase_price, '1000000000');
    assert.equal(v.account_creation_charge, '7000000000000000000000');
    const costs = v.transaction_costs as JsonObject;
    assert.deepEqual(costs.action_receipt_creation_config, {
      send_sir: 108059500000,
      send_not_sir: 108059500000,
      execution: 108059500000,
    });
    assert.deepEqual(costs.burnt_gas_reward, [3, 10]);
  });
});

describe('jsonNumber', () => {
  it('passes exact values and refuses ones a double would round', () => {
    assert.equal(jsonNumber(400000000000000000n), 400000000000000000);
    assert.equal(JSON.stringify(jsonNumber(400000000000000000n)), '400000000000000000');
    assert.throws(() => jsonNumber(9007199254740993n), RangeError);
  });
});
