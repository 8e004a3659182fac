import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { base58Encode, KeyPair, ONE_NEAR, type Receipt, TGAS } from '@shadebox/primitives';
import type { ChunkResult, Outcome } from '../runtime/apply-chunk.js';
import { ANSI_COLOURS, coloursFor, NO_COLOURS } from './colours.js';
import { failureSentence } from './failure-sentence.js';
import { formatNear } from './format-amounts.js';
import { formatBlockEntries } from './format-entries.js';

const key = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(7));
const id = (n: number) => new Uint8Array(32).fill(n);
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));

function receipt(n: number, predecessorId: string, receiverId: string, actions: unknown[]): Receipt {
  return {
    predecessorId,
    receiverId,
    receiptId: id(n),
    priority: 0n,
    receipt: {
      kind: 'Action',
      signerId: predecessorId,
      signerPublicKey: key.publicKey,
      gasPrice: 100_000_000n,
      outputDataReceivers: [],
      inputDataIds: [],
      actions: actions as never,
      isPromiseYield: false,
    },
  };
}

function outcome(n: number, status: Outcome['status'], extra: Partial<Outcome> = {}): Outcome {
  return {
    id: id(n),
    executorId: 'x',
    gasBurnt: 2_428_000_000_000n,
    tokensBurnt: 242_800_000_000_000_000_000n,
    logs: [],
    receiptIds: [],
    status,
    ...extra,
  };
}

function chunk(outcomes: Outcome[], transactions: ChunkResult['transactions'] = []): ChunkResult {
  return {
    transactions,
    dropped: [],
    outcomes,
    outgoingReceipts: [],
    gasUsed: 0n,
    balanceBurnt: 0n,
    validatorProposals: [],
  };
}

describe('the live transaction log entries', () => {
  it('a transaction, then its receipt naming it instead of repeating the actions', () => {
    const tx = {
      signedTransaction: {
        transaction: {
          version: 0 as const,
          signerId: 'alice.test.near',
          publicKey: key.publicKey,
          nonce: 1n,
          receiverId: 'bob.test.near',
          blockHash: id(0),
          actions: [{ type: 'Transfer' as const, deposit: 3n * ONE_NEAR }],
          priorityFee: 0n,
        },
        signature: { keyType: 0 as const, data: new Uint8Array(64) },
      },
      hash: id(1),
      size: 0,
    };
    const origins = new Map<string, string>();
    const first = formatBlockEntries(
      5,
      [chunk([outcome(1, { SuccessReceiptId: id(2) })], [tx])],
      NO_COLOURS,
      origins,
    );
    const hash = base58Encode(id(1));
    const receiptId = base58Encode(id(2));
    assert.equal(
      first,
      `#5 tx ${hash}  alice.test.near → bob.test.near\n` +
        '    Transfer 3 NEAR\n' +
        `    ok → receipt ${receiptId.slice(0, 8)}…  gas 2.43 Tgas, burnt 0.0002428 NEAR\n`,
    );
    const r = receipt(2, 'alice.test.near', 'bob.test.near', [{ type: 'Transfer', deposit: 3n * ONE_NEAR }]);
    const second = formatBlockEntries(
      6,
      [chunk([outcome(2, { SuccessValue: '' }, { receipt: r })])],
      NO_COLOURS,
      origins,
    );
    assert.equal(
      second,
      `#6 receipt ${receiptId.slice(0, 8)}… of tx ${hash.slice(0, 8)}…  alice.test.near → bob.test.near\n` +
        '    ok  gas 2.43 Tgas, burnt 0.0002428 NEAR\n',
    );
    assert.equal(origins.size, 0);
  });

  it('a call with its arguments, deposit, logs and return value; gas refunds left out', () => {
    const call = receipt(3, 'alice.test.near', 'app.test.near', [
      {
        type: 'FunctionCall',
        methodName: 'greet',
        args: json({ name: 'bob' }),
        gas: 30n * TGAS,
        deposit: 1n,
      },
    ]);
    const refund = receipt(4, 'system', 'alice.test.near', [{ type: 'Transfer', deposit: 5n }]);
    const text = formatBlockEntries(7, [
      chunk([
        outcome(
          3,
          { SuccessValue: Buffer.from('"hi bob"').toString('base64') },
          { receipt: call, logs: ['greeted'] },
        ),
        outcome(4, { SuccessValue: '' }, { receipt: refund }),
      ]),
    ]);
    assert.equal(
      text,
      `#7 receipt ${base58Encode(id(3)).slice(0, 8)}…  alice.test.near → app.test.near\n` +
        '    call greet({"name":"bob"}) 30.00 Tgas, deposit 1 yoctoNEAR\n' +
        '    log: greeted\n' +
        '    ok, returned "hi bob"  gas 2.43 Tgas, burnt 0.0002428 NEAR\n',
    );
  });

  it('a panic as a sentence; keys added and deploys with their size', () => {
    const r = receipt(5, 'alice.test.near', 'alice.test.near', [
      { type: 'DeployContract', code: new Uint8Array(12345) },
      {
        type: 'AddKey',
        publicKey: key.publicKey,
        accessKey: {
          nonce: 0n,
          permission: {
            kind: 'FunctionCall',
            allowance: ONE_NEAR / 4n,
            receiverId: 'app.test.near',
            methodNames: ['a'],
          },
        },
      },
    ]);
    const failure = {
      ActionError: {
        index: 1,
        kind: { FunctionCallError: { ExecutionError: 'Smart contract panicked: no way' } },
      },
    };
    const text = formatBlockEntries(8, [chunk([outcome(5, { Failure: failure }, { receipt: r })])]);
    assert.match(text, /\n {4}DeployContract 12,345 bytes\n/);
    assert.match(
      text,
      /\n {4}AddKey ed25519:\w+ \(function call on app\.test\.near \(a\), allowance 0\.25 NEAR\)\n/,
    );
    assert.match(text, /\n {4}failed: action 1: the contract panicked: no way {2}gas /);
  });

  it('chain signatures: the request of a sign call and the answer of respond', () => {
    const payload = 'cd'.repeat(32);
    const sign = receipt(6, 'agent.test.near', 'signer.test.near', [
      {
        type: 'FunctionCall',
        methodName: 'sign',
        args: json({ request: { path: 'solana-1', payload_v2: { Eddsa: payload }, domain_id: 1 } }),
        gas: 50n * TGAS,
        deposit: 1n,
      },
    ]);
    const respond = receipt(7, 'mpc.test.near', 'signer.test.near', [
      {
        type: 'FunctionCall',
        methodName: 'respond',
        args: json({
          request: { tweak: '00', payload: { Eddsa: payload }, domain_id: 1 },
          response: { scheme: 'Ed25519', signature: [1, 2, 255] },
        }),
        gas: 50n * TGAS,
        deposit: 0n,
      },
    ]);
    const text = formatBlockEntries(9, [
      chunk([
        outcome(6, { SuccessReceiptId: id(9) }, { receipt: sign }),
        outcome(7, { SuccessValue: '' }, { receipt: respond }),
      ]),
    ]);
    assert.match(
      text,
      new RegExp(
        `\\n {4}chain signature request from agent\\.test\\.near: path "solana-1", domain 1 \\(ed25519/EdDSA\\), payload 0x${payload} \\(Eddsa\\)\\n`,
      ),
    );
    assert.match(
      text,
      new RegExp(`chain signature answer for payload 0x${payload} \\(Eddsa\\): EdDSA signature 0x0102ff\\n`),
    );
  });

  it('failures as sentences', () => {
    const sentence = (kind: unknown) => failureSentence({ ActionError: { index: 0, kind } });
    assert.equal(
      sentence({ AccountDoesNotExist: { account_id: 'nobody.test.near' } }),
      'action 0: the account nobody.test.near does not exist',
    );
    assert.equal(
      sentence({ FunctionCallError: { MethodResolveError: 'MethodNotFound' } }),
      'action 0: the contract has no method of that name',
    );
    assert.equal(
      sentence({
        FunctionCallError: { CompilationError: { CodeDoesNotExist: { account_id: 'a.test.near' } } },
      }),
      'action 0: the account a.test.near has no contract deployed',
    );
    assert.equal(
      sentence({ LackBalanceForState: { account_id: 'a.test.near', amount: (ONE_NEAR / 100n).toString() } }),
      'action 0: the account a.test.near lacks 0.01 NEAR to pay for its storage',
    );
  });

  it('amounts with a few significant digits; colours only for a terminal without NO_COLOR', () => {
    assert.equal(formatNear(0n), '0 NEAR');
    assert.equal(formatNear(1n), '1 yoctoNEAR');
    assert.equal(formatNear(1_234_567_891_234_567_891_234_567n), '1.234567 NEAR');
    assert.equal(formatNear(22_318_200_000_000_000_000n), '0.0000223182 NEAR');
    assert.equal(coloursFor({ isTTY: true }, {}), ANSI_COLOURS);
    assert.equal(coloursFor({ isTTY: true }, { NO_COLOR: '1' }), NO_COLOURS);
    assert.equal(coloursFor({ isTTY: false }, {}), NO_COLOURS);
  });
});
