/**
 * The state of a chain as genesis records, for `near-sandbox view-state dump-state` (nearcore's
 * `neard view-state dump-state`, tools/state-viewer/src/state_dump.rs): every account, contract, access key
 * and data record as of a block, in state-key order, plus a genesis that starts from that block.
 *
 * It reads a store that the running node may be writing (LMDB allows readers in other processes), so it opens
 * the chain read-only and never commits.
 */
import { join } from 'node:path';
import {
  accessKeyToView,
  base64Encode,
  decodeAccessKey,
  KeyPair,
  publicKeyHandleToString,
} from '@shadebox/primitives';
import type { GenesisConfig, StateRecord } from '../config/genesis.js';
import { totalSupplyOf } from '../config/genesis-storage.js';
import { formatGenesisTime } from '../config/genesis-time.js';
import type { Home } from '../config/init-home.js';
import { loadRuntimeConfig } from '../config/runtime-config.js';
import { runtimeParamsFrom } from '../runtime/runtime-params.js';
import { accountToView, decodeAccount } from '../state/account.js';
import { decodeStateKey } from '../state/decode-state-key.js';
import { StateColumn } from '../state/state-keys.js';
import { openLmdbStore } from '../store/lmdb-store.js';
import { Chain } from './chain.js';

/** The columns genesis records hold, in nearcore's trie order. */
const DUMPED_COLUMNS = [
  StateColumn.Account,
  StateColumn.ContractCode,
  StateColumn.AccessKey,
  StateColumn.ContractData,
];

/** Every record of the state as of block `height`, in state-key order. */
export function stateRecordsAt(chain: Chain, height: number): StateRecord[] {
  const records: StateRecord[] = [];
  for (const column of DUMPED_COLUMNS) {
    for (const { key, value } of chain.state.scan(Uint8Array.of(column), height)) {
      const decoded = decodeStateKey(key);
      if (decoded === undefined) continue;
      switch (decoded.column) {
        case 'account':
          records.push({
            Account: {
              account_id: decoded.accountId,
              account: { ...withoutPaidAt(accountToView(decodeAccount(value))), version: 'V1' },
            },
          } as StateRecord);
          break;
        case 'contract_code':
          records.push({
            Contract: { account_id: decoded.accountId, code: base64Encode(value) },
          } as StateRecord);
          break;
        case 'access_key':
          records.push({
            AccessKey: {
              account_id: decoded.accountId,
              public_key: publicKeyHandleToString(decoded.publicKey),
              access_key: accessKeyToView(decodeAccessKey(value)),
            },
          } as StateRecord);
          break;
        case 'gas_key_nonce':
          // nearcore's `StateRecord::GasKeyNonce` (a gas key's nonce, NEP-611).
          records.push({
            GasKeyNonce: {
              account_id: decoded.accountId,
              public_key: publicKeyHandleToString(decoded.publicKey),
              index: decoded.index,
              nonce: Number(Buffer.from(value.buffer, value.byteOffset, value.byteLength).readBigUInt64LE(0)),
            },
          } as StateRecord);
          break;
        case 'contract_data':
          records.push({
            Data: {
              account_id: decoded.accountId,
              data_key: base64Encode(decoded.dataKey),
              value: base64Encode(value),
            },
          } as StateRecord);
          break;
      }
    }
  }
  return records;
}

function withoutPaidAt(view: ReturnType<typeof accountToView>) {
  const { storage_paid_at: _, ...rest } = view;
  return rest;
}

export interface StateDump {
  /** The block the state is taken at (the head). */
  height: number;
  /** A genesis that starts a new chain from that state: genesis_height and genesis_time of the block,
   * the records of its state, and total_supply their sum. */
  genesis: GenesisConfig;
}

/**
 * Reads the chain of `home` (its store, read-only) and returns its head state as a new genesis, as
 * nearcore's state dump does (the genesis height and time become the head block's).
 */
export async function dumpHomeState(home: Home & { dir: string }): Promise<StateDump> {
  const store = openLmdbStore(join(home.dir, home.config.store.path), { readOnly: true });
  try {
    const chain = new Chain({
      store,
      genesis: home.genesis,
      params: runtimeParamsFrom(loadRuntimeConfig(home.genesis.protocol_version), home.genesis.chain_id),
      validatorKey: KeyPair.fromString(home.validatorKey.secret_key),
      validatorAccountId: home.validatorKey.account_id,
      readOnly: true,
    });
    const head = chain.head;
    const records = stateRecordsAt(chain, head.height);
    const genesis: GenesisConfig = {
      ...home.genesis,
      genesis_height: head.height,
      genesis_time: formatGenesisTime(BigInt(head.timestampNs)),
      total_supply: totalSupplyOf(records).toString(),
      records,
    };
    return { height: head.height, genesis };
  } finally {
    await store.close();
  }
}
