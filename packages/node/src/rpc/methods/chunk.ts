/**
 * `chunk`: by `chunk_id`, or by `block_id` and `shard_id` (also `[chunk_hash]` and `[[block_id, shard_id]]`).
 */

import { base58Encode } from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import { notFoundText, parseBlockId, resolveBlockId } from '../block-reference.js';
import { failParse } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { readCryptoHash, readFields, readU64, structEntries } from '../serde.js';

export function chunk(ctx: RpcContext, params: unknown) {
  let chunkId: string | undefined;
  let blockId: number | string | undefined;
  let shardId: number | undefined;
  if (Array.isArray(params) && params.length === 1) {
    // `[[block_id, shard_id]]` (a tuple) or `[chunk_id]`.
    const [inner] = params;
    if (Array.isArray(inner)) [blockId, shardId] = blockShardTuple(inner);
    else chunkId = base58Encode(readCryptoHash(inner));
  } else {
    // Anything else is parsed as `ChunkReference` itself (`Params<ChunkReference>`), an untagged enum:
    // `BlockShardId {block_id, shard_id}` is tried first, then `ChunkHash {chunk_id}`, each from an object only
    // (untagged struct variants take no sequence); nothing matching gets serde's untagged-enum message.
    const attempt = <T>(read: () => T): T | undefined => {
      try {
        return read();
      } catch {
        return undefined;
      }
    };
    const entries = attempt(() => structEntries(params, 'ChunkReference')) ?? [];
    const isMap = params !== null && typeof params === 'object' && !Array.isArray(params);
    // Without both fields the first variant fails on a missing field: not tried (a thrown error per
    // `{chunk_id}` request, which the MPC responder makes for every chunk it reads, costs more than the rest).
    const hasBlockShard =
      entries.some(([key]) => key === 'block_id') && entries.some(([key]) => key === 'shard_id');
    const byBlock =
      isMap && hasBlockShard
        ? attempt(() =>
            readFields(entries, { block_id: { read: parseBlockId }, shard_id: { read: readU64 } }),
          )
        : undefined;
    if (byBlock) [blockId, shardId] = [byBlock.block_id, byBlock.shard_id];
    else if (isMap)
      chunkId = attempt(() =>
        base58Encode(readFields(entries, { chunk_id: { read: readCryptoHash } }).chunk_id),
      );
    if (!byBlock && chunkId === undefined)
      failParse('data did not match any variant of untagged enum ChunkReference');
  }
  if (chunkId === undefined) {
    const block = resolveBlockId(ctx.chain, blockId!);
    if (!block) throw handlerError('UNKNOWN_BLOCK', {}, notFoundText(blockId!, 'BLOCK'));
    if (shardId! >= block.chunkHashes.length) {
      throw handlerError('INVALID_SHARD_ID', { shard_id: shardId }, `Shard id ${shardId} does not exist`);
    }
    chunkId = block.chunkHashes[shardId!];
  }
  const record = ctx.chain.chunk(chunkId);
  if (!record) {
    throw handlerError(
      'UNKNOWN_CHUNK',
      { chunk_hash: chunkId },
      `Chunk Missing (unavailable on the node): ChunkHash(\`${chunkId}\`) \n Cause: Unknown`,
    );
  }
  return { rawJson: stringifyJson(record.view) };
}

/** serde's `(BlockId, ShardId)` from an array. */
function blockShardTuple(items: unknown[]): [number | string, number] {
  if (items.length < 1) failParse('invalid length 0, expected a tuple of size 2');
  const blockId = parseBlockId(items[0]);
  if (items.length < 2) failParse('invalid length 1, expected a tuple of size 2');
  const shardId = readU64(items[1]);
  if (items.length > 2) failParse(`invalid length ${items.length}, expected fewer elements in array`);
  return [blockId, shardId];
}
