/**
 * `chunk`: by `chunk_id`, or by `block_id` and `shard_id` (also `[chunk_hash]` and `[[block_id, shard_id]]`).
 */
import { stringifyJson } from '../../chain/json.js';
import { notFoundText, parseBlockId, resolveBlockId } from '../block-reference.js';
import { failParse, objectParams, typeName } from '../params.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';

export function chunk(ctx: RpcContext, params: unknown) {
  let chunkId: string | undefined;
  let blockId: number | string | undefined;
  let shardId: number | undefined;
  if (Array.isArray(params)) {
    if (params.length !== 1) failParse(`invalid length ${params.length}, expected a tuple of size 1`);
    if (Array.isArray(params[0])) [blockId, shardId] = [parseBlockId(params[0][0]), parseShard(params[0][1])];
    else chunkId = parseChunkHash(params[0]);
  } else {
    // nearcore's untagged `ChunkReference`: `BlockShardId {block_id, shard_id}` is tried first, then
    // `ChunkHash {chunk_id}`; nothing matching gets serde's untagged-enum message.
    const p = objectParams(params);
    const attempt = <T>(read: () => T): T | undefined => {
      try {
        return read();
      } catch {
        return undefined;
      }
    };
    const byBlock = attempt(() => [parseBlockId(p.block_id), parseShard(p.shard_id)] as const);
    if (byBlock) [blockId, shardId] = byBlock;
    else chunkId = attempt(() => parseChunkHash(p.chunk_id));
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

function parseChunkHash(v: unknown): string {
  if (typeof v !== 'string' || !/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(v))
    failParse(`invalid value: ${typeName(v)}, expected a chunk hash`);
  return v;
}

function parseShard(v: unknown): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    failParse(`invalid type: ${typeName(v)}, expected u64`);
  return v;
}
