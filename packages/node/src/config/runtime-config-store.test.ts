import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseLosslessJson } from './lossless-json.js';
import { runtimeConfigView } from './protocol-config-view.js';
import {
  DEFAULT_PROTOCOL_VERSION,
  MIN_SUPPORTED_PROTOCOL_VERSION,
  PROTOCOL_FEATURES,
  protocolFeatureEnabled,
  STABLE_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  UnsupportedProtocolVersionError,
} from './protocol-version.js';
import { loadRuntimeConfig, RuntimeConfigError, runtimeConfigFromView } from './runtime-config.js';
import {
  applyParameterDiff,
  PARAMETER_DIFFS,
  resolveParameters,
  runtimeConfigFor,
  runtimeConfigFromParameters,
} from './runtime-config-store.js';
import { BASE_PARAMETERS } from './runtime-parameters/base-83.js';
import { fee, type ParameterValue } from './runtime-parameters/parameter-data.js';

/** The snapshot a version's view is held to. */
function snapshotOf(version: number): number {
  return version === 86 ? 85 : version;
}

/** nearcore's resolved-parameter snapshot of `version` (`near_parameters__config_store__tests__NN.json.snap`,
 * nearcore commit 056688902d8b), as text. 85 is the pinned file; 86 changes nothing the view shows (its one
 * parameter, `fix_contract_loading_error`, is not in nearcore's `VMConfigView`), so its snapshot is 85's.
 * 87's is our vector of nearcore 2.14's view (test-vectors/runtime-config-view-87.json says how it is made). */
function snapshotText(version: number): string {
  const file =
    snapshotOf(version) === 85
      ? './parameters-pv85.json'
      : `./test-vectors/runtime-config-view-${snapshotOf(version)}.json`;
  return readFileSync(new URL(file, import.meta.url), 'utf8');
}

/** What our view adds to nearcore's snapshot: `vm_kind` (redacted there) and `saturating_float_to_int`. */
function expectedView(version: number, vmKind: string): unknown {
  const snapshot = JSON.parse(snapshotText(version));
  delete snapshot._source;
  const wasm: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(snapshot.wasm_config)) {
    wasm[key] = value;
    if (key === 'linear_op_unit_cost') wasm.vm_kind = vmKind;
    if (key === 'discard_custom_sections') wasm.saturating_float_to_int = true;
  }
  snapshot.wasm_config = wasm;
  return snapshot;
}

describe('protocol versions', () => {
  it('are 83 to 87 (nearcore 2.13.1 and 2.14), new chains on 86 as mainnet', () => {
    assert.equal(MIN_SUPPORTED_PROTOCOL_VERSION, 83);
    assert.equal(STABLE_PROTOCOL_VERSION, 87);
    assert.equal(DEFAULT_PROTOCOL_VERSION, 86);
    assert.deepEqual(SUPPORTED_PROTOCOL_VERSIONS, [83, 84, 85, 86, 87]);
    assert.deepEqual(
      PARAMETER_DIFFS.map((d) => d.protocolVersion),
      [84, 85, 86, 87],
    );
  });

  it('switch features at nearcore versions', () => {
    assert.equal(protocolFeatureEnabled('FixContractLoadingError', 85), false);
    assert.equal(protocolFeatureEnabled('FixContractLoadingError', 86), true);
    assert.equal(protocolFeatureEnabled('GasKeys', 84), false);
    assert.equal(protocolFeatureEnabled('GasKeys', 85), true);
    assert.equal(PROTOCOL_FEATURES.Wasmtime, 84);
    for (const feature of [
      'RejectEmptyMethodName',
      'RejectDelegateV2',
      'RejectWithdrawFromGasKeyInDelegate',
      'RemoveGasRewards',
      'ReceiptPromiseInputSizeLimit',
      'FixMlDsaCostCharging',
      'GlobalContractSameChunkCallFix',
      'UniversalAccounts',
    ] as const) {
      assert.equal(protocolFeatureEnabled(feature, 86), false, feature);
      assert.equal(protocolFeatureEnabled(feature, 87), true, feature);
    }
  });
});

describe('runtimeConfigFor', () => {
  it('resolves every supported version, once', () => {
    for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
      const config = runtimeConfigFor(version);
      assert.equal(config.protocolVersion, version);
      assert.equal(runtimeConfigFor(version), config);
      assert.equal(loadRuntimeConfig(version), config);
      assert.ok(
        Object.isFrozen(config) && Object.isFrozen(config.fees) && Object.isFrozen(config.wasm.limits),
      );
    }
    assert.equal(loadRuntimeConfig(), runtimeConfigFor(86));
  });

  it('refuses a version outside 83..87 with a clear error', () => {
    for (const version of [0, 29, 82, 88, 129, 85.5]) {
      assert.throws(
        () => runtimeConfigFor(version),
        (error: unknown) =>
          error instanceof UnsupportedProtocolVersionError &&
          error.details.protocolVersion === version &&
          error.message ===
            `protocol version ${version} is not supported: this node runs protocol versions 83 to 87`,
      );
    }
  });

  for (const version of SUPPORTED_PROTOCOL_VERSIONS) {
    it(`shows ${version} as nearcore's snapshot of ${snapshotOf(version)} does`, () => {
      const config = runtimeConfigFor(version);
      const vmKind = version >= 84 ? 'Wasmtime' : 'NearVm';
      assert.equal(config.wasm.vmKind, vmKind);
      // Same fields, values, encodings and order.
      assert.equal(
        JSON.stringify(runtimeConfigView(config)),
        JSON.stringify(expectedView(snapshotOf(version), vmKind)),
      );
    });

    it(`reads nearcore's view of ${snapshotOf(version)} back into the same config as ${version}`, () => {
      const fromView = runtimeConfigFromView(parseLosslessJson(snapshotText(snapshotOf(version))), version);
      const stored = runtimeConfigFor(version);
      assert.deepEqual({ ...fromView, source: '' }, { ...stored, source: '' });
    });
  }

  it('has what each version changes where nearcore has it', () => {
    const [v83, v84, v85, v86, v87] = SUPPORTED_PROTOCOL_VERSIONS.map(runtimeConfigFor);
    // 84: Wasmtime, preparation v3 limits, the compute of a global contract's distribution.
    assert.equal(v83.wasm.limits.maxFunctionBodySize, undefined);
    assert.equal(v84.wasm.limits.maxFunctionBodySize, 196_608);
    assert.equal(v83.wasm.limits.maxDeployActionsPerReceipt, 100);
    assert.equal(v84.wasm.limits.maxDeployActionsPerReceipt, 10);
    assert.equal(v83.deployGlobalContractExecutionBase, 0n);
    assert.equal(v84.deployGlobalContractExecutionBase, 20_000_000_000_000n);
    assert.equal(v84.deployGlobalContractExecutionPerByte, 250_000_000n);
    // 85: NEP-642 and the host functions of gas keys, yield with id, chain_id, P-256, 1 yocto.
    assert.deepEqual(
      v84.fees.deterministic_state_init_base,
      fee(3_850_000_000_000n, 3_850_000_000_000n, 4_080_000_000_000n),
    );
    assert.deepEqual(
      v85.fees.deterministic_state_init_base,
      fee(500_000_000_000n, 500_000_000_000n, 7_430_000_000_000n),
    );
    assert.equal(v84.minGasPurchasePrice, 0n);
    assert.equal(v85.minGasPurchasePrice, 1_000_000_000n);
    assert.equal(v85.accountCreationCharge, 7n * 10n ** 21n);
    assert.equal(v84.wasm.gasKeyHostFns, false);
    assert.equal(v85.wasm.gasKeyHostFns, true);
    // 86: only the contract-loading fix.
    assert.equal(v85.wasm.fixContractLoadingError, false);
    assert.equal(v86.wasm.fixContractLoadingError, true);
    assert.deepEqual(
      { ...v86, wasm: { ...v86.wasm, fixContractLoadingError: false }, source: '', protocolVersion: 0 },
      {
        ...v85,
        source: '',
        protocolVersion: 0,
      },
    );
    // 87 (87.yaml): no gas reward, bounded promise inputs and state-init entries, 2 code bytes per local,
    // the SHA3 / ML-DSA host functions, universal accounts, the ML-DSA cost-charging fix.
    assert.deepEqual(v86.burntGasReward, { numerator: 3n, denominator: 10n });
    assert.deepEqual(v87.burntGasReward, { numerator: 0n, denominator: 1n });
    assert.equal(v86.wasm.limits.maxReceiptTotalInputSize, 4_294_967_295);
    assert.equal(v87.wasm.limits.maxReceiptTotalInputSize, 4_194_944);
    assert.equal(v86.wasm.limits.maxStateInitEntries, 4_294_967_295);
    assert.equal(v87.wasm.limits.maxStateInitEntries, 1_500);
    assert.equal(v86.wasm.limits.minContractSizePerLocal, undefined);
    assert.equal(v87.wasm.limits.minContractSizePerLocal, 2);
    for (const flag of ['sha3HostFns', 'mlDsaVerifyHostFn', 'universalAccounts'] as const) {
      assert.equal(v86.wasm[flag], false, flag);
      assert.equal(v87.wasm[flag], true, flag);
    }
    assert.equal(v86.fixMlDsaCostCharging, false);
    assert.equal(v87.fixMlDsaCostCharging, true);
    assert.equal(v87.wasm.fixContractLoadingError, true);
    for (const config of [v86, v87]) {
      assert.equal(config.wasm.limits.maxUniversalStateInitKeys, 1_024);
      assert.equal(config.wasm.extCosts.sha3_384_base, 5_811_388_236n);
      assert.equal(config.wasm.extCosts.sha3_512_byte, 36_649_701n);
      assert.equal(config.wasm.extCosts.ml_dsa_verify_base, 540_000_000_000n);
      assert.equal(config.wasm.extCosts.ml_dsa_verify_byte, 11_000_000n);
      assert.equal(config.wasm.extCosts.universal_state_init_to_account_id_base, 8_520_000_000n);
      assert.equal(config.wasm.extCosts.universal_state_init_to_account_id_byte, 21_471_105n);
    }
    // The same at every version: the fees of gas keys and global contracts, the global-contract price.
    for (const config of [v83, v84, v85, v86, v87]) {
      assert.deepEqual(
        config.fees.gas_key_transfer_base,
        fee(115_123_062_500n, 115_123_062_500n, 235_676_644_250n),
      );
      assert.deepEqual(config.fees.gas_key_byte, fee(59_357_464n, 59_357_464n, 101_435_400n));
      assert.deepEqual(config.fees.gas_key_nonce_write_base, fee(0n, 0n, 64_196_736_000n));
      assert.deepEqual(config.fees.deploy_global_contract_byte, fee(6_812_999n, 47_683_715n, 70_000_000n));
      assert.deepEqual(config.fees.use_global_contract_byte, fee(6_812_999n, 47_683_715n, 64_572_944n));
      assert.deepEqual(config.fees.deterministic_state_init_entry, fee(0n, 0n, 200_000_000_000n));
      assert.equal(config.globalContractStorageAmountPerByte, 10n ** 20n);
      assert.equal(config.wasm.limits.maxGasBurntView, 10n ** 15n);
      assert.deepEqual(config.gasRefundPenalty, { numerator: 0n, denominator: 100n });
    }
  });

  it('keeps NEP-642 consistent wherever the charge is on: gas bought at the purchase price covers it', () => {
    for (const config of SUPPORTED_PROTOCOL_VERSIONS.map(runtimeConfigFor)) {
      for (const cost of ['create_account', 'deterministic_state_init_base'] as const) {
        assert.ok(
          config.fees[cost].execution * config.minGasPurchasePrice >= config.accountCreationCharge,
          cost,
        );
      }
    }
  });
});

describe('resolveParameters', () => {
  it('changes between versions exactly what each diff names', () => {
    for (const diff of PARAMETER_DIFFS) {
      const before = resolveParameters(diff.protocolVersion - 1);
      const after = resolveParameters(diff.protocolVersion);
      const changed = [...after.keys()].filter(
        (name) => JSON.stringify(show(before.get(name))) !== JSON.stringify(show(after.get(name))),
      );
      assert.deepEqual(changed.sort(), Object.keys(diff.changes).sort(), `${diff.protocolVersion}`);
    }
  });

  it('refuses a diff whose old value is not the current one (nearcore WrongOldValue)', () => {
    const table = new Map<string, ParameterValue>(Object.entries(BASE_PARAMETERS));
    assert.throws(
      () =>
        applyParameterDiff(table, {
          protocolVersion: 84,
          source: 'test',
          changes: { max_deploy_actions_per_receipt: { old: 99n, new: 10n } },
        }),
      (error: unknown) =>
        error instanceof RuntimeConfigError &&
        error.path === '84.max_deploy_actions_per_receipt' &&
        /replaces 99, but the value is 100/.test(error.message),
    );
    assert.throws(
      () =>
        applyParameterDiff(table, {
          protocolVersion: 84,
          source: 'test',
          changes: { action_transfer: { old: fee(1n, 1n, 1n), new: fee(2n, 2n, 2n) } },
        }),
      /84\.action_transfer: replaces/,
    );
  });

  it('refuses adding a value that exists, to a parameter nobody knows, or of another kind', () => {
    const table = new Map<string, ParameterValue>(Object.entries(BASE_PARAMETERS));
    const diff = (changes: Record<string, { old?: ParameterValue; new: ParameterValue }>) => ({
      protocolVersion: 84,
      source: 'test',
      changes,
    });
    assert.throws(() => applyParameterDiff(table, diff({ max_number_logs: { new: 1n } })), /already is 100/);
    assert.throws(
      () => applyParameterDiff(table, diff({ max_numbr_logs: { new: 1n } })),
      /unknown parameter/,
    );
    assert.throws(
      () => applyParameterDiff(table, diff({ max_number_logs: { old: 100n, new: true } })),
      /changes the kind of value/,
    );
    assert.throws(
      () => applyParameterDiff(table, diff({ max_params_per_function: { old: 64n, new: 65n } })),
      /has no value/,
    );
  });

  it('refuses a base that misses a parameter or has one the config does not know', () => {
    const missing = new Map(resolveParameters(85));
    missing.delete('action_gas_key_byte');
    assert.throws(
      () => runtimeConfigFromParameters(missing, 85),
      (error: unknown) => error instanceof RuntimeConfigError && error.path === '85.action_gas_key_byte',
    );
    const extra = new Map(resolveParameters(85));
    extra.set('wasm_sha3_224_base', 1n);
    assert.throws(() => runtimeConfigFromParameters(extra, 85), /85\.wasm_sha3_224_base: unknown parameter/);
    const wrongKind = new Map(resolveParameters(85));
    wrongKind.set('vm_kind', 'Wasmer2');
    assert.throws(() => runtimeConfigFromParameters(wrongKind, 85), /unknown VM kind Wasmer2/);
  });
});

function show(value: ParameterValue | undefined): unknown {
  if (typeof value === 'bigint') return value.toString();
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, String(v)]));
  }
  return value;
}
