/**
 * The self-signed state init of a universal account (NEP-655) through a chunk, at protocols 86 and 87: the
 * uninitialized account signs its own UniversalStateInit with a key it commits to, at exactly its bootstrap
 * nonce + 1; the nonce is consumed even when the init fails; every other shape is `AccessKeyNotFound`; at 86 the
 * action is refused before any state is read. Cases of nearcore 2.14's `test_self_signed_state_init` and the
 * verifier's rules (runtime/runtime/src/verifier.rs).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  type Action,
  createTransaction,
  encodeSignedTransaction,
  encodeUniversalStateInit,
  type GlobalContractIdentifier,
  KeyPair,
  publicKeyHandle,
  publicKeyToString,
  signTransaction,
  transactionHash,
  universalAccountIdOfRaw,
  universalStateInit,
} from '@shadebox/primitives';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { accountToView } from '../state/account.js';
import { applyChunk, type PendingTransaction } from './apply-chunk.js';
import { runtimeParamsFrom } from './runtime-params.js';
import { NEAR, RuntimeHarness } from './test-support/apply-receipt-harness.js';
import { validateTransaction } from './verify-transaction.js';

const key = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(31));
const stranger = KeyPair.fromSecretBytes(0, new Uint8Array(32).fill(32));

function stateInitOf(code: GlobalContractIdentifier | null = null): Uint8Array {
  return encodeUniversalStateInit(
    universalStateInit(code, [[Uint8Array.of(1), Uint8Array.of(2)]], [publicKeyHandle(key.publicKey)]),
  );
}

/** A chain at `protocolVersion` where alice funded the universal account of `raw` with 3 NEAR (at 87). */
function setup(protocolVersion: number, raw = stateInitOf()) {
  const h = new RuntimeHarness(runtimeParamsFrom(loadRuntimeConfig(protocolVersion)));
  h.addAccount('alice.near', 10n * NEAR);
  const uaid = universalAccountIdOfRaw(raw);
  h.applyAction(uaid, { type: 'Transfer', deposit: 3n * NEAR });
  h.state.commit({ type: 'initial_state' });
  return { h, uaid, raw };
}

function tx(
  h: RuntimeHarness,
  o: { signerId: string; receiverId?: string; nonce: bigint; actions: Action[]; signer?: KeyPair },
): PendingTransaction {
  const signer = o.signer ?? key;
  const t = createTransaction({
    signerId: o.signerId,
    publicKey: signer.publicKey,
    nonce: o.nonce,
    receiverId: o.receiverId ?? o.signerId,
    blockHash: h.block.blockHash,
    actions: o.actions,
  });
  const signedTransaction = signTransaction(t, signer);
  return {
    signedTransaction,
    hash: transactionHash(t),
    size: encodeSignedTransaction(signedTransaction).length,
  };
}

const init = (raw: Uint8Array): Action => ({ type: 'UniversalStateInit', stateInit: raw, deposit: 0n });
const dropReason = (out: ReturnType<typeof applyChunk>) => out.dropped.map((d) => d.error.toJSON());

describe('the self-signed state init of a universal account', () => {
  it('at 87 the account signs its own init at bootstrap_nonce + 1 and ends initialized with the key', () => {
    const { h, uaid, raw } = setup(87);
    const before = h.account(uaid)!;
    const bootstrapNonce = before.uninitialized!.bootstrapNonce;
    assert.equal(bootstrapNonce, 9_000_000n);
    const t = tx(h, { signerId: uaid, nonce: bootstrapNonce + 1n, actions: [init(raw)] });
    const out = applyChunk(h.params, h.block, h.state, [t], []);
    assert.deepEqual(dropReason(out), []);
    assert.equal(out.outcomes.length, 2, 'the transaction and its local receipt');
    assert.ok('SuccessValue' in out.outcomes[1].status, JSON.stringify(out.outcomes[1].status));
    const after = h.account(uaid)!;
    assert.equal(after.uninitialized, undefined);
    assert.equal(accountToView(after).state, undefined);
    // The account paid its own transaction (the prepaid gas comes back in a refund receipt, not applied here).
    const cost = validateTransaction(h.params, t.signedTransaction, t.hash, t.size, h.block.gasPrice);
    assert.equal(after.amount, before.amount - cost.totalCost);
    // The installed key starts above the consumed nonce: the same bytes cannot replay through it.
    assert.equal(h.accessKey(uaid, key.publicKey)?.nonce, bootstrapNonce + 1n);
    const again = applyChunk(h.params, h.block, h.state, [t], []);
    assert.deepEqual(dropReason(again), [
      { InvalidNonce: { tx_nonce: Number(bootstrapNonce + 1n), ak_nonce: Number(bootstrapNonce + 1n) } },
    ]);
  });

  it('the nonce is strict: anything but bootstrap_nonce + 1 is InvalidNonce against the bootstrap nonce', () => {
    const { h, uaid, raw } = setup(87);
    for (const nonce of [9_000_000n, 9_000_002n]) {
      const out = applyChunk(
        h.params,
        h.block,
        h.state,
        [tx(h, { signerId: uaid, nonce, actions: [init(raw)] })],
        [],
      );
      assert.deepEqual(dropReason(out), [{ InvalidNonce: { tx_nonce: Number(nonce), ak_nonce: 9_000_000 } }]);
    }
    assert.ok(h.account(uaid)?.uninitialized);
  });

  it('a failed init consumes the nonce: the account stays uninitialized and the bytes are spent', () => {
    const raw = stateInitOf({ kind: 'AccountId', accountId: 'nobody.near' });
    const { h, uaid } = setup(87, raw);
    const t = tx(h, { signerId: uaid, nonce: 9_000_001n, actions: [init(raw)] });
    const out = applyChunk(h.params, h.block, h.state, [t], []);
    assert.deepEqual(dropReason(out), []);
    const failure = out.outcomes[1].status as { Failure?: { ActionError?: { kind: unknown } } };
    assert.deepEqual(Object.keys(failure.Failure?.ActionError?.kind as object), [
      'GlobalContractDoesNotExist',
    ]);
    const account = h.account(uaid)!;
    assert.equal(account.uninitialized?.bootstrapNonce, 9_000_001n);
    assert.equal(accountToView(account).bootstrap_nonce, 9_000_001);
    const again = applyChunk(h.params, h.block, h.state, [t], []);
    assert.deepEqual(dropReason(again), [{ InvalidNonce: { tx_nonce: 9_000_001, ak_nonce: 9_000_001 } }]);
  });

  it('any other shape is AccessKeyNotFound: a key not committed to, another receiver, no state init', () => {
    const { h, uaid, raw } = setup(87);
    h.addAccount('bob.near', NEAR);
    const notFound = (publicKey: string) => [
      { InvalidAccessKeyError: { AccessKeyNotFound: { account_id: uaid, public_key: publicKey } } },
    ];
    const cases: PendingTransaction[] = [
      tx(h, { signerId: uaid, nonce: 9_000_001n, actions: [init(raw)], signer: stranger }),
      tx(h, {
        signerId: uaid,
        receiverId: 'bob.near',
        nonce: 9_000_001n,
        actions: [{ type: 'Transfer', deposit: 1n }],
      }),
      tx(h, { signerId: uaid, nonce: 9_000_001n, actions: [{ type: 'Transfer', deposit: 1n }] }),
    ];
    for (const [i, t] of cases.entries()) {
      const out = applyChunk(h.params, h.block, h.state, [t], []);
      const signer = i === 0 ? stranger : key;
      assert.deepEqual(dropReason(out), notFound(publicKeyToString(signer.publicKey)), `case ${i}`);
    }
    assert.equal(h.account(uaid)?.uninitialized?.bootstrapNonce, 9_000_000n);
  });

  it('at 86 the same transaction is refused by action validation (UnsupportedProtocolFeature)', () => {
    const { h, uaid, raw } = setup(86);
    assert.equal(h.account(uaid), undefined, 'at 86 the transfer created nothing');
    const out = applyChunk(
      h.params,
      h.block,
      h.state,
      [tx(h, { signerId: uaid, nonce: 1n, actions: [init(raw)] })],
      [],
    );
    assert.deepEqual(dropReason(out), [
      {
        ActionsValidation: {
          UnsupportedProtocolFeature: { protocol_feature: 'UniversalAccounts', version: 86 },
        },
      },
    ]);
  });
});
