import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { ACTION_COSTS, sendFee } from './fees.js';
import { type LosslessValue, parseLosslessJson } from './lossless-json.js';
import {
  CONGESTION_CONTROL_FIELDS,
  EXT_COSTS,
  FEE_PATHS,
  LIMIT_FIELDS,
  loadRuntimeConfig,
  PROTOCOL_VERSION,
  RuntimeConfigError,
  runtimeConfigFromView,
  viewLayout,
  WASM_FIELDS,
  WITNESS_FIELDS,
} from './runtime-config.js';
import { FEE_PARAMETERS } from './runtime-config-store.js';

// The pinned file, read independently of the loader (plain JSON.parse: every pinned number is exact as a double,
// which the raw-text checks below confirm for the ones above 2^53).
const pinnedPath = new URL('./parameters-pv85.json', import.meta.url);
const pinnedText = readFileSync(pinnedPath, 'utf8');
// biome-ignore lint/suspicious/noExplicitAny: walking arbitrary JSON in a test
const pinned: any = JSON.parse(pinnedText);

function at(path: readonly string[], root = pinned.transaction_costs) {
  return path.reduce((node, key) => node[key], root);
}

describe('loadRuntimeConfig', () => {
  // The pinned file is nearcore's view of protocol 85: the store's 85 is held to it field by field.
  const rc = loadRuntimeConfig(85);

  it('is protocol 85 and says where its numbers come from; a new chain runs 86', () => {
    assert.equal(PROTOCOL_VERSION, 86);
    assert.equal(loadRuntimeConfig().protocolVersion, 86);
    assert.equal(rc.protocolVersion, 85);
    assert.match(rc.source, /protocol version 85: the base \(83\) and the diffs of 84, 85$/);
    assert.match(
      pinned._source,
      /^near\/nearcore core\/parameters\/src\/snapshots\/.*__85\.json\.snap at commit [0-9a-f]{12}/,
    );
  });

  it('is memoised and frozen', () => {
    assert.equal(loadRuntimeConfig(85), rc);
    assert.ok(Object.isFrozen(rc) && Object.isFrozen(rc.fees) && Object.isFrozen(rc.fees.transfer));
    assert.ok(Object.isFrozen(rc.wasm.extCosts) && Object.isFrozen(rc.wasm.limits));
    assert.throws(() => {
      (rc.fees.transfer as { execution: bigint }).execution = 0n;
    }, TypeError);
  });

  it('has every fee as bigints equal to the JSON numbers', () => {
    // The view shows the fees of the actions it knows; every fee has a parameter in the store.
    assert.deepEqual(Object.keys(FEE_PARAMETERS).sort(), [...ACTION_COSTS].sort());
    assert.equal(FEE_PATHS.length, 16);
    for (const [cost, path] of FEE_PATHS) {
      const json = at(path);
      const fee = rc.fees[cost];
      assert.equal(typeof fee.sendSir, 'bigint', cost);
      assert.equal(fee.sendSir, BigInt(json.send_sir), `${cost}.send_sir`);
      assert.equal(fee.sendNotSir, BigInt(json.send_not_sir), `${cost}.send_not_sir`);
      assert.equal(fee.execution, BigInt(json.execution), `${cost}.execution`);
    }
  });

  it('has the protocol-85 values where they matter most', () => {
    assert.deepEqual(rc.fees.transfer, {
      sendSir: 115123062500n,
      sendNotSir: 115123062500n,
      execution: 115123062500n,
    });
    // NEP-642 rebalanced create_account towards execution.
    assert.deepEqual(rc.fees.create_account, {
      sendSir: 500000000000n,
      sendNotSir: 500000000000n,
      execution: 7200000000000n,
    });
    assert.equal(rc.fees.new_data_receipt_byte.sendNotSir, 47683715n);
    assert.equal(sendFee(rc.fees.new_data_receipt_byte, true), 17212011n);
    assert.equal(sendFee(rc.fees.new_data_receipt_byte, false), 47683715n);
    assert.equal(rc.storageAmountPerByte, 10n ** 19n);
    assert.deepEqual(rc.storageUsage, { numBytesAccount: 100n, numExtraBytesRecord: 40n });
    assert.deepEqual(rc.burntGasReward, { numerator: 3n, denominator: 10n });
    assert.deepEqual(rc.pessimisticGasPriceInflationRatio, { numerator: 1n, denominator: 1n });
    assert.equal(rc.mlDsa65VerificationCost, 100000000000n);
    assert.equal(rc.minGasPurchasePrice, 1_000_000_000n);
    assert.equal(rc.accountCreationCharge, 7n * 10n ** 21n);
    assert.equal(rc.wasm.limits.maxTotalPrepaidGas, 10n ** 15n);
    assert.equal(rc.wasm.limits.maxGasBurnt, 10n ** 15n);
    assert.equal(rc.wasm.limits.maxActionsPerReceipt, 100);
    assert.equal(rc.wasm.limits.maxTransactionSize, 1_572_864);
    assert.equal(rc.wasm.limits.accountIdValidityRulesVersion, 2);
    assert.deepEqual(rc.accountCreation, {
      minAllowedTopLevelAccountLength: 65,
      registrarAccountId: 'registrar',
    });
    assert.equal(rc.wasm.vmKind, 'Wasmtime');
    assert.equal(rc.wasm.storageGetMode, 'FlatStorage');
  });

  it('has the protocol-85 parameters the view omits (global contracts, state init, gas keys)', () => {
    const gas = (f: { sendSir: bigint; sendNotSir: bigint; execution: bigint }) => [
      f.sendSir,
      f.sendNotSir,
      f.execution,
    ];
    assert.deepEqual(gas(rc.fees.deploy_global_contract_base), [184765750000n, 184765750000n, 184765750000n]);
    assert.deepEqual(gas(rc.fees.deploy_global_contract_byte), [6812999n, 47683715n, 70000000n]);
    assert.deepEqual(gas(rc.fees.use_global_contract_base), [184765750000n, 184765750000n, 184765750000n]);
    assert.deepEqual(gas(rc.fees.use_global_contract_byte), [6812999n, 47683715n, 64572944n]);
    assert.deepEqual(gas(rc.fees.deterministic_state_init_base), [
      500000000000n,
      500000000000n,
      7430000000000n,
    ]);
    assert.deepEqual(gas(rc.fees.deterministic_state_init_byte), [72000000n, 72000000n, 70000000n]);
    assert.deepEqual(gas(rc.fees.deterministic_state_init_entry), [0n, 0n, 200000000000n]);
    assert.deepEqual(gas(rc.fees.gas_key_transfer_base), [115123062500n, 115123062500n, 235676644250n]);
    assert.deepEqual(gas(rc.fees.gas_key_byte), [59357464n, 59357464n, 101435400n]);
    assert.deepEqual(gas(rc.fees.gas_key_nonce_write_base), [0n, 0n, 64196736000n]);
    assert.equal(rc.globalContractStorageAmountPerByte, 10n ** 20n);
    assert.equal(rc.deployGlobalContractExecutionBase, 20_000_000_000_000n);
    assert.equal(rc.deployGlobalContractExecutionPerByte, 250_000_000n);
    assert.equal(rc.wasm.limits.maxGasBurntView, 10n ** 15n);
    assert.equal(rc.wasm.limits.maxReceiptTotalInputSize, 4_294_967_295);
    assert.equal(rc.wasm.fixContractLoadingError, false);
    for (const cost of ACTION_COSTS) assert.ok(Object.isFrozen(rc.fees[cost]), cost);
  });

  it('keeps NEP-642 consistent: gas bought at min_gas_purchase_price covers account_creation_charge', () => {
    // nearcore debug_asserts this in refund_unspent_gas_and_deposits.
    assert.ok(rc.fees.create_account.execution * rc.minGasPurchasePrice >= rc.accountCreationCharge);
  });

  it('has every ext cost as a bigint equal to the JSON number, in the view order', () => {
    // 85's view is nearcore 2.13.1's: the costs 2.14 added are not in it.
    const shown = viewLayout(85).extCosts;
    assert.deepEqual([...shown], Object.keys(pinned.wasm_config.ext_costs));
    assert.equal(EXT_COSTS.length, shown.length + 8);
    for (const name of shown) {
      assert.equal(typeof rc.wasm.extCosts[name], 'bigint');
      assert.equal(rc.wasm.extCosts[name], BigInt(pinned.wasm_config.ext_costs[name]), name);
    }
    assert.equal(rc.wasm.extCosts.storage_write_base, 64196736000n);
    assert.equal(rc.wasm.extCosts.yield_create_with_id_base, 290000000000n);
  });

  it('has wasm, limit, congestion and witness fields with gas as bigint and sizes as numbers', () => {
    const layout = viewLayout(85);
    assert.equal(layout.release, '2.13');
    // 87 shows nearcore 2.14's tables, which every typed field comes from.
    assert.equal(viewLayout(87).wasmFields, WASM_FIELDS);
    assert.equal(viewLayout(87).limitFields, LIMIT_FIELDS);
    const sections = [
      [rc.wasm, layout.wasmFields, pinned.wasm_config],
      [rc.wasm.limits, layout.limitFields, pinned.wasm_config.limit_config],
      [rc.congestionControl, CONGESTION_CONTROL_FIELDS, pinned.congestion_control_config],
      [rc.witness, WITNESS_FIELDS, pinned.witness_config],
    ] as const;
    for (const [typed, table, json] of sections) {
      for (const [jsonName, name, kind] of table) {
        const value = (typed as unknown as Record<string, unknown>)[name];
        if (kind === 'gas') assert.equal(value, BigInt(json[jsonName]), jsonName);
        else assert.equal(value, json[jsonName], jsonName);
        assert.equal(
          typeof value,
          kind === 'gas' ? 'bigint' : kind === 'bool' ? 'boolean' : 'number',
          jsonName,
        );
      }
    }
    assert.equal(rc.congestionControl.rejectTxCongestionThreshold, 0.8);
  });

  it('reads the values above 2^53 digit for digit', () => {
    for (const [name, value] of [
      ['max_congestion_incoming_gas', rc.congestionControl.maxCongestionIncomingGas],
      ['max_congestion_outgoing_gas', rc.congestionControl.maxCongestionOutgoingGas],
      ['max_outgoing_gas', rc.congestionControl.maxOutgoingGas],
    ] as const) {
      const raw = new RegExp(`"${name}":\\s*(\\d+)`).exec(pinnedText)?.[1];
      assert.equal(value.toString(), raw, name);
    }
  });
});

describe('runtimeConfigFromView', () => {
  const fresh = () => parseLosslessJson(pinnedText) as Record<string, Record<string, unknown>>;

  it('keeps a gas value above 2^53 exactly', () => {
    const text = pinnedText.replace('"base": 264768111', '"base": 9007199254740993');
    assert.notEqual(text, pinnedText);
    assert.equal(runtimeConfigFromView(parseLosslessJson(text)).wasm.extCosts.base, 9007199254740993n);
  });

  it('names the path of a missing field', () => {
    const view = fresh();
    delete (view.transaction_costs.action_creation_config as Record<string, unknown>).transfer_cost;
    assert.throws(
      () => runtimeConfigFromView(view as unknown as LosslessValue),
      (error: unknown) =>
        error instanceof RuntimeConfigError &&
        error.path === '$.transaction_costs.action_creation_config.transfer_cost' &&
        /missing/.test(error.message),
    );
  });

  it('refuses an unknown field rather than dropping it', () => {
    const view = fresh();
    (view.wasm_config.ext_costs as Record<string, unknown>).sha3_384_base = view.wasm_config.ext_costs;
    assert.throws(
      () => runtimeConfigFromView(view as unknown as LosslessValue),
      /ext_costs\.sha3_384_base: unknown field/,
    );
  });

  it('refuses the wrong encodings', () => {
    const asString = pinnedText.replace('"regular_op_cost": 822756', '"regular_op_cost": "822756"');
    assert.throws(
      () => runtimeConfigFromView(parseLosslessJson(asString)),
      /regular_op_cost: expected an integer JSON number/,
    );
    const asNumber = pinnedText.replace(
      '"min_gas_purchase_price": "1000000000"',
      '"min_gas_purchase_price": 1000000000',
    );
    assert.throws(
      () => runtimeConfigFromView(parseLosslessJson(asNumber)),
      /min_gas_purchase_price: expected a string/,
    );
    const negative = pinnedText.replace('"log_base": 3543313050', '"log_base": -1');
    assert.throws(() => runtimeConfigFromView(parseLosslessJson(negative)), /log_base: -1 is not a u64/);
    const fraction = pinnedText.replace('"max_number_logs": 100', '"max_number_logs": 1.5');
    assert.throws(() => runtimeConfigFromView(parseLosslessJson(fraction)), /max_number_logs/);
    const zeroDenominator = pinnedText.replace('"burnt_gas_reward": [3, 10]', '"burnt_gas_reward": [3, 0]');
    assert.notEqual(zeroDenominator, pinnedText);
    assert.throws(() => runtimeConfigFromView(parseLosslessJson(zeroDenominator)), /denominator is 0/);
  });
});
