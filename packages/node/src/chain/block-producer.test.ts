/** Automine's burst of blocks and the end of it (the `onIdle` hook the heap trim collects on). */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { setImmediate as turn } from 'node:timers/promises';
import { KeyPair } from '@shadebox/primitives';
import { createEphemeralHome } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { openMemoryStore } from '../store/memory-store.js';
import { BlockProducer } from './block-producer.js';
import { Chain } from './chain.js';
import { TxPool } from './tx-pool.js';

function chain(): Chain {
  const home = createEphemeralHome();
  return new Chain({
    store: openMemoryStore(),
    genesis: home.genesis,
    params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
    validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
    validatorAccountId: home.validatorKey.account_id,
  });
}

/** Lets automine's setImmediate chain run until it stops making blocks. */
async function settle(c: Chain): Promise<void> {
  let height = -1;
  while (height !== c.head.height) {
    height = c.head.height;
    for (let i = 0; i < 5; i++) await turn();
  }
}

describe('BlockProducer (automine)', () => {
  it('tells onIdle once when a burst of blocks ends, and not when it is notified with nothing to do', async () => {
    const c = chain();
    let waiting = 5;
    const idles: number[] = [];
    const producer = new BlockProducer(
      c,
      new TxPool(),
      { kind: 'automine' },
      {
        // Someone waits until five blocks were made: automine makes them back to back, then stops.
        hasWaiters: () => waiting > 0,
        onIdle: () => idles.push(c.head.height),
      },
    );
    c.on('block', () => waiting--);
    try {
      const start = c.head.height;
      producer.notify();
      await settle(c);
      assert.equal(c.head.height, start + 5);
      assert.deepEqual(idles, [start + 5], 'once, after the last block of the burst');
      producer.notify();
      await settle(c);
      assert.deepEqual(idles, [start + 5], 'no block was made: no burst ended');
      waiting = 2;
      producer.notify();
      await settle(c);
      assert.deepEqual(idles, [start + 5, start + 7]);
    } finally {
      producer.stop();
    }
  });

  it('never tells onIdle in manual mode', async () => {
    const c = chain();
    const idles: number[] = [];
    const producer = new BlockProducer(
      c,
      new TxPool(),
      { kind: 'manual' },
      { hasWaiters: () => true, onIdle: () => idles.push(c.head.height) },
    );
    try {
      producer.produce(3);
      await settle(c);
      assert.deepEqual(idles, []);
    } finally {
      producer.stop();
    }
  });
});
