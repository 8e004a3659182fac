/**
 * GetKey's keys: deterministic per path from the simulator's root key, as dstack's are per app and path
 * from its KMS. app key = HKDF-SHA256(root key, salt = app id, "shadebox-dstack-sim/app-key"); the key of a
 * path = HKDF-SHA256(app key, no salt, "shadebox-dstack-sim/key:" ‖ path), 32 bytes (a secp256k1 or
 * ed25519 secret for any practical purpose). The purpose does not change the key, as in dstack.
 */
import { createHash, hkdfSync } from 'node:crypto';

/** The root key when none is given: public (anyone can derive every key from it), for simulation only. */
export const DEFAULT_ROOT_KEY = createHash('sha256')
  .update('shadebox dstack simulator root key: public, not a secret')
  .digest();

export function appKey(rootKey: Buffer, appId: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', rootKey, appId, 'shadebox-dstack-sim/app-key', 32));
}

export function deriveKey(rootKey: Buffer, appId: Buffer, path: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', appKey(rootKey, appId), Buffer.alloc(0), `shadebox-dstack-sim/key:${path}`, 32),
  );
}
