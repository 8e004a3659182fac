/**
 * Reading a state key back (the inverse of state-keys.ts, as nearcore's `TrieKey` parsers do): which column it
 * belongs to, whose account it is, and the record's own key (the public key of an access key, the user key of a
 * contract-data record). Only the per-account columns the `changes` RPC reports are decoded.
 */
import { decodePublicKeyHandle, type PublicKeyHandle } from '@shadebox/primitives';
import { StateColumn } from './state-keys.js';

export type DecodedStateKey =
  | { column: 'account'; accountId: string }
  | { column: 'contract_code'; accountId: string }
  | { column: 'access_key'; accountId: string; publicKey: PublicKeyHandle }
  | { column: 'gas_key_nonce'; accountId: string; publicKey: PublicKeyHandle; index: number }
  | { column: 'contract_data'; accountId: string; dataKey: Uint8Array };

const ACCESS_KEY_SEPARATOR = StateColumn.AccessKey;
const ACCOUNT_DATA_SEPARATOR = 0x2c;
const utf8d = new TextDecoder('utf-8', { fatal: true });

/** Bytes of a stored key handle: tag 1 (secp256k1) 65, tags 0 (ed25519) and 3 (ML-DSA-65 digest) 33. */
function publicKeyHandleBorshLength(bytes: Uint8Array): number {
  return bytes[0] === 1 ? 65 : 33;
}

/** The decoded key, or undefined for a key of another column (receipts, delayed-receipt queues, …). */
export function decodeStateKey(key: Uint8Array): DecodedStateKey | undefined {
  const rest = key.subarray(1);
  switch (key[0]) {
    case StateColumn.Account:
      return { column: 'account', accountId: utf8d.decode(rest) };
    case StateColumn.ContractCode:
      return { column: 'contract_code', accountId: utf8d.decode(rest) };
    case StateColumn.AccessKey: {
      // Account ids never contain the separator byte, so the first one ends the account id.
      const at = rest.indexOf(ACCESS_KEY_SEPARATOR);
      if (at < 0) throw new Error('access key state key without a separator');
      const accountId = utf8d.decode(rest.subarray(0, at));
      const keyBytes = rest.subarray(at + 1);
      // A gas key's nonce has the access key's key followed by a u16 index (the handle is 2 bytes short).
      const handleLen = publicKeyHandleBorshLength(keyBytes);
      if (keyBytes.length === handleLen + 2) {
        return {
          column: 'gas_key_nonce',
          accountId,
          publicKey: decodePublicKeyHandle(keyBytes.subarray(0, handleLen)),
          index: keyBytes[handleLen] | (keyBytes[handleLen + 1] << 8),
        };
      }
      return { column: 'access_key', accountId, publicKey: decodePublicKeyHandle(keyBytes) };
    }
    case StateColumn.ContractData: {
      const at = rest.indexOf(ACCOUNT_DATA_SEPARATOR);
      if (at < 0) throw new Error('contract data state key without a separator');
      return {
        column: 'contract_data',
        accountId: utf8d.decode(rest.subarray(0, at)),
        dataKey: rest.subarray(at + 1),
      };
    }
    default:
      return undefined;
  }
}
