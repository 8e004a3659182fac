import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type JsonRpcStub, startJsonRpcStub } from '../test-support/json-rpc-stub.js';
import {
  ExpiredTransactionError,
  InvalidNonceError,
  InvalidTransactionError,
  invalidTxErrorOf,
  rpcErrorOf,
} from './invalid-transaction.js';
import { RpcClient } from './rpc-client.js';
import { RpcError } from './rpc-error.js';

/** nearcore's `send_tx` error for a refused transaction (chain/jsonrpc-primitives): cause info empty, the
 * InvalidTxError in `data`. */
const rpcShape = (invalidTx: unknown) => ({
  name: 'HANDLER_ERROR',
  cause: { name: 'INVALID_TRANSACTION', info: {} },
  code: -32000,
  message: 'Server error',
  data: { TxExecutionError: { InvalidTxError: invalidTx } },
});

describe('InvalidTxError detection', () => {
  it('reads InvalidNonce from the data of a send_tx error', () => {
    const error = rpcErrorOf('send_tx', rpcShape({ InvalidNonce: { tx_nonce: 5, ak_nonce: 7 } }));
    assert.ok(error instanceof InvalidNonceError);
    assert.ok(error instanceof InvalidTransactionError && error instanceof RpcError);
    assert.equal(error.txNonce, 5n);
    assert.equal(error.akNonce, 7n);
    assert.equal(error.variant, 'InvalidNonce');
    assert.equal(error.causeName, 'INVALID_TRANSACTION');
  });

  it('reads it from cause.info too, and nonces given as strings', () => {
    const error = rpcErrorOf('broadcast_tx_commit', {
      name: 'HANDLER_ERROR',
      cause: {
        name: 'INVALID_TRANSACTION',
        info: { TxExecutionError: { InvalidTxError: { InvalidNonce: { tx_nonce: '9', ak_nonce: '12' } } } },
      },
    });
    assert.ok(error instanceof InvalidNonceError);
    assert.equal(error.akNonce, 12n);
  });

  it('reads the failure of a transaction outcome', () => {
    const outcome = {
      status: { Failure: { InvalidTxError: { InvalidNonce: { tx_nonce: 1, ak_nonce: 3 } } } },
    };
    assert.deepEqual(invalidTxErrorOf(outcome), { InvalidNonce: { tx_nonce: 1, ak_nonce: 3 } });
    const error = rpcErrorOf('send_tx', outcome.status.Failure);
    assert.ok(error instanceof InvalidNonceError);
    assert.equal(error.akNonce, 3n);
  });

  it('tells Expired and other refusals apart', () => {
    const expired = rpcErrorOf('send_tx', rpcShape('Expired'));
    assert.ok(expired instanceof ExpiredTransactionError);
    assert.equal(expired.variant, 'Expired');
    const balance = rpcErrorOf('send_tx', rpcShape({ NotEnoughBalance: { signer_id: 'a.near' } }));
    assert.ok(balance instanceof InvalidTransactionError);
    assert.ok(!(balance instanceof InvalidNonceError) && !(balance instanceof ExpiredTransactionError));
    assert.equal(balance.variant, 'NotEnoughBalance');
  });

  it('is not fooled by the words in a text', () => {
    const text = rpcErrorOf('query', {
      name: 'HANDLER_ERROR',
      cause: { name: 'CONTRACT_EXECUTION_ERROR', info: { vm_error: 'panicked: InvalidNonce Expired' } },
      data: 'InvalidNonce ak_nonce: 7 Expired',
    });
    assert.ok(!(text instanceof InvalidTransactionError));
    assert.ok(text instanceof RpcError);
    assert.equal(invalidTxErrorOf(null), undefined);
    assert.equal(invalidTxErrorOf({ status: { SuccessValue: '' } }), undefined);
  });

  it('an ak_nonce beyond exact JSON numbers is marked unknown (-1), to be read again', () => {
    const error = rpcErrorOf('send_tx', rpcShape({ InvalidNonce: { tx_nonce: 1, ak_nonce: 2 ** 60 } }));
    assert.ok(error instanceof InvalidNonceError);
    assert.equal(error.akNonce, -1n);
  });

  describe('through the transport', () => {
    let stub: JsonRpcStub;
    after(() => stub?.close());

    it('throws the specific class for a send_tx answer', async () => {
      stub = await startJsonRpcStub(() => ({ error: rpcShape('Expired') }));
      const error = await new RpcClient(stub.url).call('send_tx', {}).catch((e) => e);
      assert.ok(error instanceof ExpiredTransactionError);
      assert.match(error.message, /^send_tx: INVALID_TRANSACTION: Server error: \{"TxExecutionError"/);
    });
  });
});
