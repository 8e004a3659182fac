/**
 * `query` with `request_type: "view_gas_key_nonces"` (protocol 85): the current nonce of each of a gas key's
 * nonce indexes, `{ nonces: [...] }`, as nearcore's `QueryResponseKind::GasKeyNonces`. A key that does not
 * exist, or is not a gas key, is `UNKNOWN_GAS_KEY`.
 */
import { gasKeyInfoOf, type PublicKey, publicKeyToString } from '@shadebox/primitives';
import type { StateUpdate } from '../../state/state-update.js';
import { getAccessKey, getGasKeyNonce } from '../../state/typed-state.js';
import { handlerError } from '../rpc-error.js';

export function viewGasKeyNonces(
  state: StateUpdate,
  accountId: string,
  publicKey: PublicKey,
  at: { block_height: number; block_hash: string },
): { nonces: number[] } {
  const key = getAccessKey(state, accountId, publicKey);
  const info = key && gasKeyInfoOf(key.permission);
  if (!info) {
    throw handlerError(
      'UNKNOWN_GAS_KEY',
      { public_key: publicKeyToString(publicKey), ...at },
      `gas key ${publicKeyToString(publicKey)} does not exist while viewing`,
    );
  }
  const nonces: number[] = [];
  for (let i = 0; i < info.numNonces; i++) {
    nonces.push(Number(getGasKeyNonce(state, accountId, publicKey, i) ?? 0n));
  }
  return { nonces };
}
