import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeAction, encodeAction } from './action.js';
import { BorshReader, BorshWriter } from './borsh.js';
import { base64Encode, hexEncode } from './encoding.js';
import { InvalidViewError } from './errors.js';
import {
  type AccountContract,
  globalContractIdentifierFromView,
  globalContractIdentifierLength,
  readAccountContract,
  writeAccountContract,
} from './global-contract.js';
import { cryptoHashToString, sha256 } from './hash.js';
import { decodeReceipt, encodeReceipt } from './receipt.js';
import type { Action, Receipt } from './types.js';
import {
  actionFromJson,
  actionFromView,
  actionToJson,
  actionToView,
  receiptFromView,
  receiptToView,
} from './views.js';

const code = Uint8Array.from([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
const hash = sha256(code);

describe('global contract actions', () => {
  it('encode as nearcore: tag 9, code, one deploy-mode byte; tag 10, identifier', () => {
    assert.equal(
      hexEncode(encodeAction({ type: 'DeployGlobalContract', code, deployMode: 'AccountId' })),
      `09080000000061736d0100000001`,
    );
    assert.equal(
      hexEncode(
        encodeAction({
          type: 'UseGlobalContract',
          contractIdentifier: { kind: 'AccountId', accountId: 'ab' },
        }),
      ),
      '0a01020000006162',
    );
    const byHash: Action = {
      type: 'UseGlobalContract',
      contractIdentifier: { kind: 'CodeHash', codeHash: hash },
    };
    assert.equal(hexEncode(encodeAction(byHash)), `0a00${hexEncode(hash)}`);
    assert.deepEqual(decodeAction(encodeAction(byHash)), byHash);
  });

  it('show as nearcore’s ActionView and round trip through it (a deploy keeps only the hash)', () => {
    const deploy: Action = { type: 'DeployGlobalContract', code, deployMode: 'CodeHash' };
    assert.deepEqual(actionToView(deploy), { DeployGlobalContract: { code: base64Encode(hash) } });
    assert.deepEqual(actionToView({ ...deploy, deployMode: 'AccountId' }), {
      DeployGlobalContractByAccountId: { code: base64Encode(hash) },
    });
    assert.deepEqual(actionFromView(actionToView(deploy)), { ...deploy, code: hash });
    const use: Action = {
      type: 'UseGlobalContract',
      contractIdentifier: { kind: 'CodeHash', codeHash: hash },
    };
    assert.deepEqual(actionToView(use), { UseGlobalContract: { code_hash: cryptoHashToString(hash) } });
    assert.deepEqual(actionFromView(actionToView(use)), use);
    const useById: Action = {
      type: 'UseGlobalContract',
      contractIdentifier: { kind: 'AccountId', accountId: 'g.near' },
    };
    assert.deepEqual(actionToView(useById), { UseGlobalContractByAccountId: { account_id: 'g.near' } });
    assert.deepEqual(actionFromView(actionToView(useById)), useById);
  });

  it('have the serde form of Action inside delegate actions', () => {
    const deploy: Action = { type: 'DeployGlobalContract', code, deployMode: 'AccountId' };
    assert.deepEqual(actionToJson(deploy), {
      DeployGlobalContract: { code: base64Encode(code), deploy_mode: 'AccountId' },
    });
    assert.deepEqual(actionFromJson(actionToJson(deploy)), deploy);
    const use: Action = {
      type: 'UseGlobalContract',
      contractIdentifier: { kind: 'CodeHash', codeHash: hash },
    };
    assert.deepEqual(actionToJson(use), {
      UseGlobalContract: { contract_identifier: { CodeHash: cryptoHashToString(hash) } },
    });
    assert.deepEqual(actionFromJson(actionToJson(use)), use);
    assert.throws(
      () => actionFromJson({ DeployGlobalContract: { code: '', deploy_mode: 'Hash' } }),
      InvalidViewError,
    );
  });
});

describe('global contract identifiers and account contracts', () => {
  it('count 32 bytes for a hash and the account id’s length otherwise', () => {
    assert.equal(globalContractIdentifierLength({ kind: 'CodeHash', codeHash: hash }), 32);
    assert.equal(globalContractIdentifierLength({ kind: 'AccountId', accountId: 'alice.near' }), 10);
  });

  it('read identifiers from their JSON and refuse malformed ones', () => {
    assert.deepEqual(globalContractIdentifierFromView({ AccountId: 'a.near' }), {
      kind: 'AccountId',
      accountId: 'a.near',
    });
    assert.deepEqual(globalContractIdentifierFromView({ CodeHash: cryptoHashToString(hash) }), {
      kind: 'CodeHash',
      codeHash: hash,
    });
    for (const bad of [{ CodeHash: 'x' }, { AccountId: 'A' }, { Other: 'a' }, 'CodeHash', {}]) {
      assert.throws(() => globalContractIdentifierFromView(bad), InvalidViewError, JSON.stringify(bad));
    }
  });

  it('encode AccountContract with tags 0..3', () => {
    const cases: Array<[AccountContract, string]> = [
      [{ kind: 'None' }, '00'],
      [{ kind: 'Local', codeHash: hash }, `01${hexEncode(hash)}`],
      [{ kind: 'Global', codeHash: hash }, `02${hexEncode(hash)}`],
      [{ kind: 'GlobalByAccount', accountId: 'ab' }, '03020000006162'],
    ];
    for (const [contract, hex] of cases) {
      const w = new BorshWriter();
      writeAccountContract(w, contract);
      assert.equal(hexEncode(w.toBytes()), hex);
      assert.deepEqual(readAccountContract(new BorshReader(w.toBytes())), contract);
    }
  });
});

describe('GlobalContractDistribution receipt views', () => {
  it('show id, shards, code and nonce, and read back', () => {
    const receipt: Receipt = {
      predecessorId: 'alice',
      receiverId: 'alice',
      receiptId: new Uint8Array(32).fill(1),
      priority: 0n,
      version: 1,
      receipt: {
        kind: 'GlobalContractDistribution',
        version: 2,
        id: { kind: 'AccountId', accountId: 'alice' },
        targetShard: 1n,
        alreadyDeliveredShards: [0n],
        code,
        nonce: 3n,
      },
    };
    const view = receiptToView(receipt);
    assert.deepEqual(view.receipt, {
      GlobalContractDistribution: {
        id: { AccountId: 'alice' },
        target_shard: 1,
        already_delivered_shards: [0],
        code: base64Encode(code),
        nonce: 3,
      },
    });
    assert.deepEqual(receiptFromView(view), receipt);
    assert.deepEqual(decodeReceipt(encodeReceipt(receipt)), receipt);
  });
});
