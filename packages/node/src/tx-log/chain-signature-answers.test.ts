/**
 * The answered chain signatures kept for the EVM signature watcher (chain-signature-answers.ts), fed the
 * chunk results a chain's `executed` event carries: a `sign` receipt and a `respond` transaction join by
 * tweak and payload in either order and in each signer version's spelling; the signature is found by r and s
 * (or n − s with the other parity), not with the wrong parity; the line says what was found.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { base58Encode, KeyPair, TGAS } from '@shadebox/primitives';
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import type { ChunkResult, Outcome, PendingTransaction } from '../runtime/apply-chunk.js';
import { rememberChainSignatureAnswers } from './chain-signature-answers.js';
import { ANSI_COLOURS } from './colours.js';
import { evmSignatureLine } from './evm-signature-line.js';

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const key = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(7));
const id = (n: number) => new Uint8Array(32).fill(n);
const json = (v: unknown) => new TextEncoder().encode(JSON.stringify(v));
const call = (methodName: string, args: unknown) => ({
  type: 'FunctionCall' as const,
  methodName,
  args: json(args),
  gas: 300n * TGAS,
  deposit: 1n,
});
const tweakOf = (predecessor: string, path: string) =>
  createHash('sha3-256')
    .update(`near-mpc-recovery v0.1.0 epsilon derivation:${predecessor},${path}`)
    .digest('hex');

const PAYLOAD = 'ab'.repeat(32);
const R_X = `${'1'.repeat(63)}3`;
const S = `${'0'.repeat(62)}2a`;

function signReceipt(n: number, predecessorId: string, path: string): Outcome {
  return {
    id: id(n),
    executorId: 'signer.test.near',
    gasBurnt: 0n,
    tokensBurnt: 0n,
    logs: [],
    receiptIds: [],
    status: { SuccessValue: '' },
    receipt: {
      predecessorId,
      receiverId: 'signer.test.near',
      receiptId: id(n),
      priority: 0n,
      receipt: {
        kind: 'Action',
        signerId: predecessorId,
        signerPublicKey: key.publicKey,
        gasPrice: 100_000_000n,
        outputDataReceivers: [],
        inputDataIds: [],
        actions: [call('sign', { request: { path, payload_v2: { Ecdsa: PAYLOAD }, domain_id: 0 } })],
        isPromiseYield: false,
      },
    },
  };
}

function respondTx(n: number, request: unknown, recoveryId: number): PendingTransaction {
  return {
    signedTransaction: {
      transaction: {
        version: 0,
        signerId: 'mpc-responder.test.near',
        publicKey: key.publicKey,
        nonce: 1n,
        receiverId: 'signer.test.near',
        blockHash: id(0),
        actions: [
          call('respond', {
            request,
            response: {
              scheme: 'Secp256k1',
              big_r: { affine_point: `0${2 + (recoveryId & 1)}${R_X}` },
              s: { scalar: S },
              recovery_id: recoveryId,
            },
          }),
        ],
        priorityFee: 0n,
      },
      signature: { keyType: 0, data: new Uint8Array(64) },
    },
    hash: id(n),
    size: 0,
  };
}

const chunk = (outcomes: Outcome[], transactions: PendingTransaction[] = []): ChunkResult => ({
  transactions,
  dropped: [],
  outcomes,
  outgoingReceipts: [],
  gasUsed: 0n,
  balanceBurnt: 0n,
  validatorProposals: [],
});

/** The chain's `executed` event, as the block producer emits it. */
const executed = (chain: EventEmitter, height: number, results: ChunkResult[]) =>
  chain.emit('executed', { height } as BlockRecord, results);

describe('chain signature answers for the EVM watcher', () => {
  it('a request and its answer join, in either order and in each signer spelling', () => {
    const r = BigInt(`0x${R_X}`);
    const s = BigInt(`0x${S}`);
    const tweak = tweakOf('agent.test.near', 'ethereum-1');
    const spellings = [
      { tweak, payload: { Ecdsa: PAYLOAD }, domain_id: 0 },
      { tweak: [...Buffer.from(tweak, 'hex')], payload: { Ecdsa: PAYLOAD }, domain_id: 0 },
      { epsilon: { scalar: tweak.toUpperCase() }, payload_hash: { scalar: PAYLOAD.toUpperCase() } },
    ];
    for (const [i, request] of spellings.entries()) {
      for (const answerFirst of [false, true]) {
        const chain = new EventEmitter();
        const answers = rememberChainSignatureAnswers(chain as unknown as Chain);
        const sign = () => executed(chain, 10, [chunk([signReceipt(5, 'agent.test.near', 'ethereum-1')])]);
        const respond = () => executed(chain, 11, [chunk([], [respondTx(6, request, 1)])]);
        if (answerFirst) {
          respond();
          sign();
        } else {
          sign();
          respond();
        }
        const what = `spelling ${i}, answer first: ${answerFirst}`;
        const found = answers.find({ r, s, parity: 1 });
        assert.deepEqual(
          found && { ...found },
          {
            r,
            s,
            parity: 1,
            answeredAt: 11,
            requestReceiptId: base58Encode(id(5)),
            predecessorId: 'agent.test.near',
            path: 'ethereum-1',
          },
          what,
        );
        // The same signature with the high s and the other parity; not the wrong parity.
        assert.equal(answers.find({ r, s: N - s, parity: 0 })?.path, 'ethereum-1', what);
        assert.equal(answers.find({ r, s, parity: 0 }), undefined, what);
        assert.equal(answers.find({ r: r + 1n, s, parity: 1 }), undefined, what);
        answers.stop();
        assert.equal(chain.listenerCount('executed'), 0);
      }
    }
  });

  it('an answer for another request, or not understood, is not kept; the store is bounded', () => {
    const chain = new EventEmitter();
    const answers = rememberChainSignatureAnswers(chain as unknown as Chain, 2);
    executed(chain, 1, [chunk([signReceipt(5, 'agent.test.near', 'ethereum-1')])]);
    executed(chain, 2, [
      chunk(
        [],
        [
          respondTx(6, { tweak: tweakOf('agent.test.near', 'other'), payload: { Ecdsa: PAYLOAD } }, 0),
          respondTx(7, 'not a request', 0),
        ],
      ),
    ]);
    assert.equal(answers.size, 0);
    answers.stop();
  });

  it('the line names the transaction, the block, the request and the status', () => {
    const use = {
      txHash: `0x${'c'.repeat(64)}`,
      blockNumber: 12,
      status: 'success' as const,
      answer: { requestReceiptId: 'Fq3z', predecessorId: 'agent.test.near', path: 'ethereum-1' },
    };
    assert.equal(
      evmSignatureLine(use),
      `evm  0x${'c'.repeat(64)} in block 12 carries the signature for request Fq3z (agent.test.near, path "ethereum-1") — success\n`,
    );
    assert.ok(
      evmSignatureLine({ ...use, status: 'reverted' }, ANSI_COLOURS).endsWith(
        `— ${ANSI_COLOURS.failure('reverted')}\n`,
      ),
    );
  });
});
