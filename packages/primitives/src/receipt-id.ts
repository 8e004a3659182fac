/**
 * Ids derived while applying a chunk (core/primitives/src/utils.rs). All go through
 * `create_hash_upgradable(base, salt)`, which at protocol 85 is sha256(base ‖ u64_le(block_height) ‖
 * u64_le(salt)): `BlockHeightForReceiptId` (stable since protocol 77, core/primitives-core/src/version.rs)
 * replaced the block hash by the height of the block being applied.
 */
import { createHash } from 'node:crypto';

const SALT_MAX = 0xffff_ffff_ffff_ffffn;

export function createHashUpgradable(base: Uint8Array, blockHeight: bigint, salt: bigint): Uint8Array {
  if (base.length !== 32) throw new RangeError(`base must be a 32-byte hash, got ${base.length} bytes`);
  const tail = new Uint8Array(16);
  const view = new DataView(tail.buffer);
  view.setBigUint64(0, BigInt.asUintN(64, blockHeight), true);
  view.setBigUint64(8, BigInt.asUintN(64, salt), true);
  const digest = createHash('sha256').update(base).update(tail).digest();
  return new Uint8Array(digest);
}

/** The receipt a transaction becomes: salt 0. */
export function createReceiptIdFromTransaction(txHash: Uint8Array, blockHeight: bigint): Uint8Array {
  return createHashUpgradable(txHash, blockHeight, 0n);
}

/** A receipt produced while applying a receipt (its new action and data receipts and refunds, numbered in
 * order; runtime/runtime/src/lib.rs), or the PromiseResume of a timed-out yield (base = the data id). */
export function createReceiptIdFromReceiptId(
  receiptId: Uint8Array,
  blockHeight: bigint,
  receiptIndex: number,
): Uint8Array {
  return createHashUpgradable(receiptId, blockHeight, BigInt(receiptIndex));
}

/** The hash of the `actionIndex`-th action of a receipt: salt = u64::MAX − actionIndex, so it cannot collide
 * with ids made from the same receipt id. */
export function createActionHash(
  receiptId: Uint8Array,
  blockHeight: bigint,
  actionIndex: number,
): Uint8Array {
  return createHashUpgradable(receiptId, blockHeight, SALT_MAX - BigInt(actionIndex));
}

/** A data id made by an action (runtime/runtime/src/ext.rs `generate_data_id`, through
 * `create_receipt_id_from_action_hash`): salt = the action's running data counter. */
export function createDataId(actionHash: Uint8Array, blockHeight: bigint, dataIndex: number): Uint8Array {
  return createHashUpgradable(actionHash, blockHeight, BigInt(dataIndex));
}

/** The VM's random seed for an action: sha256(action_hash ‖ block random_value) (`create_random_seed`). */
export function createRandomSeed(actionHash: Uint8Array, randomValue: Uint8Array): Uint8Array {
  const digest = createHash('sha256').update(actionHash).update(randomValue).digest();
  return new Uint8Array(digest);
}
