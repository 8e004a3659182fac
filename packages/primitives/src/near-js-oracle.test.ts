/**
 * @near-js/transactions and @near-js/crypto as an oracle: every action kind and whole signed transactions
 * (ed25519 and secp256k1 signers) must encode to the same bytes as theirs, decode their bytes to the same
 * values, and hash and sign the same way. They have no TransactionV1; transaction.test.ts covers V1.
 *
 * Strings here are ASCII: borsh-js 1.0.0 (their dependency) writes each UTF-16 code unit as one byte, which
 * is wrong for anything else; Rust's String is UTF-8, as ours (see action.test.ts).
 */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyPair as NearJsKeyPair, PublicKey as NearJsPublicKey } from '@near-js/crypto';
import {
  actionCreators as ac,
  buildDelegateAction,
  GlobalContractDeployMode,
  GlobalContractIdentifier,
  Signature as NearJsSignature,
  SignedTransaction as NearJsSignedTransaction,
  Transaction as NearJsTransaction,
  decodeSignedTransaction as nearJsDecodeSignedTransaction,
  decodeTransaction as nearJsDecodeTransaction,
  encodeDelegateAction as nearJsEncodeDelegateAction,
  encodeSignedDelegate as nearJsEncodeSignedDelegate,
  encodeTransaction as nearJsEncodeTransaction,
} from '@near-js/transactions';
import { testRandom } from '../../../test/test-random.js';
import { decodeAction, encodeAction } from './action.js';
import {
  delegateActionHash,
  encodeSignableDelegateAction,
  encodeSignedDelegateAction,
  signDelegateAction,
  verifySignedDelegateAction,
} from './delegate-action.js';
import { hexEncode } from './encoding.js';
import { sha256 } from './hash.js';
import { KeyPair } from './key-pair.js';
import { publicKeyToString } from './keys.js';
import {
  decodeSignedTransaction,
  decodeTransaction,
  encodeSignedTransaction,
  encodeTransaction,
  signTransaction,
  transactionHash,
  verifyTransactionSignature,
} from './transaction.js';
import type { Action, DelegateAction, PublicKey, Signature, Transaction } from './types.js';
import { verifySignature } from './verify-signature.js';

const rng = testRandom('packages/primitives/src/near-js-oracle.test.ts');

type NearJsAction = ReturnType<typeof ac.transfer>;

const theirEd = NearJsKeyPair.fromString(rng.keyPair('ed25519').toString() as never);
const theirSecp = NearJsKeyPair.fromString(rng.keyPair('secp256k1').toString() as never);
const ourEd = KeyPair.fromString(theirEd.toString());
const ourSecp = KeyPair.fromString(theirSecp.toString());

function theirKey(pk: PublicKey): NearJsPublicKey {
  return NearJsPublicKey.fromString(publicKeyToString(pk));
}

function theirSignature(sig: Signature): NearJsSignature {
  return new NearJsSignature({ keyType: sig.keyType, data: sig.data });
}

/** Builds the same action with their action creators. */
function toNearJs(action: Action): NearJsAction {
  switch (action.type) {
    case 'CreateAccount':
      return ac.createAccount();
    case 'DeployContract':
      return ac.deployContract(action.code);
    case 'FunctionCall':
      return ac.functionCall(action.methodName, action.args, action.gas, action.deposit);
    case 'Transfer':
      return ac.transfer(action.deposit);
    case 'Stake':
      return ac.stake(action.stake, theirKey(action.publicKey));
    case 'AddKey': {
      const p = action.accessKey.permission;
      const key =
        p.kind === 'FullAccess'
          ? ac.fullAccessKey()
          : ac.functionCallAccessKey(p.receiverId, p.methodNames, p.allowance ?? undefined);
      key.nonce = action.accessKey.nonce;
      return ac.addKey(theirKey(action.publicKey), key);
    }
    case 'DeleteKey':
      return ac.deleteKey(theirKey(action.publicKey));
    case 'DeleteAccount':
      return ac.deleteAccount(action.beneficiaryId);
    case 'Delegate': {
      const d = action.signedDelegateAction.delegateAction;
      return ac.signedDelegate({
        delegateAction: buildDelegateAction({
          senderId: d.senderId,
          receiverId: d.receiverId,
          actions: d.actions.map(toNearJs),
          nonce: d.nonce,
          maxBlockHeight: d.maxBlockHeight,
          publicKey: theirKey(d.publicKey),
        }),
        signature: theirSignature(action.signedDelegateAction.signature),
      });
    }
    case 'DeployGlobalContract':
      return ac.deployGlobalContract(
        action.code,
        new GlobalContractDeployMode({ [action.deployMode]: {} } as never),
      );
    case 'UseGlobalContract': {
      const id = action.contractIdentifier;
      return ac.useGlobalContract(
        new GlobalContractIdentifier(
          (id.kind === 'CodeHash' ? { CodeHash: id.codeHash } : { AccountId: id.accountId }) as never,
        ),
      );
    }
  }
}

const CODE = Uint8Array.from({ length: 300 }, (_, i) => (i * 7) & 0xff);

const innerActions: Action[] = [
  { type: 'CreateAccount' },
  { type: 'Transfer', deposit: 10n ** 24n },
  {
    type: 'FunctionCall',
    methodName: 'ft_transfer',
    args: new TextEncoder().encode('{"a":1}'),
    gas: 30n * 10n ** 12n,
    deposit: 1n,
  },
  {
    type: 'AddKey',
    publicKey: ourSecp.publicKey,
    accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
  },
  { type: 'DeployContract', code: CODE },
];

const delegate: DelegateAction = {
  senderId: 'sender.near',
  receiverId: 'contract.near',
  actions: innerActions,
  nonce: 42n,
  maxBlockHeight: 123_456n,
  publicKey: ourEd.publicKey,
};

const ACTIONS: Array<[string, Action]> = [
  ['CreateAccount', { type: 'CreateAccount' }],
  ['DeployContract', { type: 'DeployContract', code: CODE }],
  ['DeployContract (empty)', { type: 'DeployContract', code: new Uint8Array(0) }],
  ['DeployGlobalContract by code hash', { type: 'DeployGlobalContract', code: CODE, deployMode: 'CodeHash' }],
  [
    'DeployGlobalContract by account id',
    { type: 'DeployGlobalContract', code: CODE, deployMode: 'AccountId' },
  ],
  [
    'UseGlobalContract by code hash',
    { type: 'UseGlobalContract', contractIdentifier: { kind: 'CodeHash', codeHash: sha256(CODE) } },
  ],
  [
    'UseGlobalContract by account id',
    { type: 'UseGlobalContract', contractIdentifier: { kind: 'AccountId', accountId: 'global.near' } },
  ],
  [
    'FunctionCall',
    {
      type: 'FunctionCall',
      methodName: 'set_greeting',
      args: Uint8Array.from([123, 125]),
      gas: 300n * 10n ** 12n,
      deposit: (1n << 128n) - 1n,
    },
  ],
  [
    'FunctionCall (max gas, no args)',
    { type: 'FunctionCall', methodName: 'm', args: new Uint8Array(0), gas: (1n << 64n) - 1n, deposit: 0n },
  ],
  ['Transfer', { type: 'Transfer', deposit: 1_500_000_000_000_000_000_000_000n }],
  ['Stake (ed25519)', { type: 'Stake', stake: 5n * 10n ** 28n, publicKey: ourEd.publicKey }],
  [
    'AddKey FullAccess (ed25519)',
    {
      type: 'AddKey',
      publicKey: ourEd.publicKey,
      accessKey: { nonce: 0n, permission: { kind: 'FullAccess' } },
    },
  ],
  [
    'AddKey FullAccess (secp256k1)',
    {
      type: 'AddKey',
      publicKey: ourSecp.publicKey,
      accessKey: { nonce: 7n, permission: { kind: 'FullAccess' } },
    },
  ],
  [
    'AddKey FunctionCall with allowance',
    {
      type: 'AddKey',
      publicKey: ourEd.publicKey,
      accessKey: {
        nonce: 0n,
        permission: {
          kind: 'FunctionCall',
          allowance: 250_000_000_000_000_000_000_000n,
          receiverId: 'app.near',
          methodNames: ['a', 'b_c'],
        },
      },
    },
  ],
  [
    'AddKey FunctionCall without allowance',
    {
      type: 'AddKey',
      publicKey: ourEd.publicKey,
      accessKey: {
        nonce: 0n,
        permission: { kind: 'FunctionCall', allowance: null, receiverId: 'app.near', methodNames: [] },
      },
    },
  ],
  ['DeleteKey (secp256k1)', { type: 'DeleteKey', publicKey: ourSecp.publicKey }],
  ['DeleteKey (ed25519)', { type: 'DeleteKey', publicKey: ourEd.publicKey }],
  ['DeleteAccount', { type: 'DeleteAccount', beneficiaryId: 'beneficiary.near' }],
  [
    'Delegate (several actions)',
    { type: 'Delegate', signedDelegateAction: signDelegateAction(delegate, ourEd) },
  ],
  [
    'Delegate (secp256k1 signer)',
    {
      type: 'Delegate',
      signedDelegateAction: signDelegateAction({ ...delegate, publicKey: ourSecp.publicKey }, ourSecp),
    },
  ],
];

function makeTx(signer: KeyPair, actions: Action[]): Transaction {
  return {
    version: 0,
    signerId: 'signer.near',
    publicKey: signer.publicKey,
    nonce: 1_000_001n,
    receiverId: 'receiver.near',
    blockHash: sha256(new TextEncoder().encode('block')),
    actions,
    priorityFee: 0n,
  };
}

function theirTx(tx: Transaction): NearJsTransaction {
  return new NearJsTransaction({
    signerId: tx.signerId,
    publicKey: theirKey(tx.publicKey),
    nonce: tx.nonce,
    receiverId: tx.receiverId,
    actions: tx.actions.map(toNearJs),
    blockHash: tx.blockHash,
  });
}

describe('every action kind against @near-js/transactions', () => {
  for (const [name, action] of ACTIONS) {
    it(name, () => {
      // Inside a transaction, since that is the unit their encoder takes.
      const tx = makeTx(ourEd, [action]);
      const ours = encodeTransaction(tx);
      const theirs = nearJsEncodeTransaction(theirTx(tx));
      assert.equal(hexEncode(ours), hexEncode(theirs), 'same bytes');
      // ours → theirs → re-encode
      assert.equal(hexEncode(nearJsEncodeTransaction(nearJsDecodeTransaction(ours))), hexEncode(ours));
      // theirs → ours: same values, same bytes
      const decoded = decodeTransaction(theirs);
      assert.deepEqual(decoded, tx);
      assert.deepEqual(encodeTransaction(decoded), theirs);
      // The action alone round trips through our codec.
      assert.deepEqual(decodeAction(encodeAction(action)), action);
    });
  }
});

describe('signed transactions against @near-js', () => {
  for (const [label, ours, theirs] of [
    ['ed25519', ourEd, theirEd],
    ['secp256k1', ourSecp, theirSecp],
  ] as const) {
    it(`${label} signer: bytes, hash and signatures agree both ways`, () => {
      const tx = makeTx(
        ours,
        ACTIONS.map(([, a]) => a),
      );
      const stx = signTransaction(tx, ours);
      const ourBytes = encodeSignedTransaction(stx);

      // Our hash is sha256 of their serialised transaction.
      const theirTxBytes = nearJsEncodeTransaction(theirTx(tx));
      assert.deepEqual(transactionHash(tx), sha256(theirTxBytes));

      // Their signed transaction with our signature has the same bytes; they decode ours and re-encode it.
      const theirStx = new NearJsSignedTransaction({
        transaction: theirTx(tx),
        signature: theirSignature(stx.signature),
      });
      assert.equal(hexEncode(nearJsEncodeTransaction(theirStx)), hexEncode(ourBytes));
      assert.equal(
        hexEncode(nearJsEncodeTransaction(nearJsDecodeSignedTransaction(ourBytes))),
        hexEncode(ourBytes),
      );

      // Our signature verifies with their key; theirs with ours.
      const hash = transactionHash(tx);
      assert.equal(theirs.verify(hash, stx.signature.data), true);
      const theirSig = theirs.sign(hash).signature;
      const theirSigned = new NearJsSignedTransaction({
        transaction: theirTx(tx),
        signature: new NearJsSignature({ keyType: ours.keyType, data: theirSig }),
      });
      const decoded = decodeSignedTransaction(nearJsEncodeTransaction(theirSigned));
      assert.deepEqual(decoded.signedTransaction.transaction, tx);
      assert.deepEqual(decoded.hash, hash);
      assert.equal(decoded.size, theirTxBytes.length);
      assert.equal(verifyTransactionSignature(decoded.signedTransaction), true);
      assert.equal(verifySignature(decoded.hash, decoded.signedTransaction.signature, tx.publicKey), true);
    });
  }
});

describe('delegate actions against @near-js/transactions', () => {
  it('the signable bytes and the NEP-461 hash are theirs', () => {
    for (const publicKey of [ourEd.publicKey, ourSecp.publicKey]) {
      const d = { ...delegate, publicKey };
      const theirs = buildDelegateAction({
        senderId: d.senderId,
        receiverId: d.receiverId,
        actions: d.actions.map(toNearJs),
        nonce: d.nonce,
        maxBlockHeight: d.maxBlockHeight,
        publicKey: theirKey(publicKey),
      });
      const theirBytes = nearJsEncodeDelegateAction(theirs);
      assert.equal(hexEncode(encodeSignableDelegateAction(d)), hexEncode(theirBytes));
      assert.deepEqual(delegateActionHash(d), sha256(theirBytes));
    }
  });

  it('signed delegate actions encode like theirs and their signatures verify', () => {
    const signed = signDelegateAction(delegate, ourEd);
    assert.equal(verifySignedDelegateAction(signed), true);
    const theirSig = theirEd.sign(delegateActionHash(delegate)).signature;
    assert.equal(
      verifySignedDelegateAction({ delegateAction: delegate, signature: { keyType: 0, data: theirSig } }),
      true,
    );
    const theirs = nearJsEncodeSignedDelegate({
      delegateAction: buildDelegateAction({
        senderId: delegate.senderId,
        receiverId: delegate.receiverId,
        actions: delegate.actions.map(toNearJs),
        nonce: delegate.nonce,
        maxBlockHeight: delegate.maxBlockHeight,
        publicKey: theirKey(delegate.publicKey),
      }),
      signature: theirSignature(signed.signature),
    });
    assert.equal(hexEncode(encodeSignedDelegateAction(signed)), hexEncode(theirs));
  });
});
