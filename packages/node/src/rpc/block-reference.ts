/**
 * Block references (`finality`, `block_id` or `sync_checkpoint`) and resolving them to a stored block.
 */
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import { failParse } from './params.js';
import { externallyTagged, isCryptoHash, structEntries, takeFlattenedVariant, unitVariant } from './serde.js';

export type BlockReference =
  | { block_id: number | string }
  | { finality: 'optimistic' | 'near-final' | 'final' }
  | { sync_checkpoint: 'genesis' | 'earliest_available' };

const FINALITIES = ['optimistic', 'near-final', 'final'] as const;
const CHECKPOINTS = ['genesis', 'earliest_available'] as const;
/** `BlockReference`'s variants, in declaration order (also their key order). */
const REFERENCE_KEYS = ['block_id', 'finality', 'sync_checkpoint'] as const;

/** `BlockId`, nearcore's untagged `Height(u64) | Hash(CryptoHash)`. */
export function parseBlockId(value: unknown): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (isCryptoHash(value)) return value;
  failParse('data did not match any variant of untagged enum BlockId');
}

/** `MaybeBlockId` (`Option<BlockId>`): null is none. */
export function parseMaybeBlockId(value: unknown): number | string | null {
  return value === null ? null : parseBlockId(value);
}

/** The value of one `BlockReference` variant. */
function referenceOf(key: (typeof REFERENCE_KEYS)[number], value: unknown): BlockReference {
  if (key === 'block_id') return { block_id: parseBlockId(value) };
  if (key === 'finality') return { finality: unitVariant(value, FINALITIES) };
  return { sync_checkpoint: unitVariant(value, CHECKPOINTS) };
}

/**
 * Takes the block reference out of a struct's entries (serde.ts `structEntries`): nearcore's
 * `#[serde(flatten)] BlockReference`, an externally tagged enum read from the flattened keys. serde takes the
 * first key, in key order (`block_id`, `finality`, `sync_checkpoint`), that names a variant and leaves the others
 * to the rest of the struct; none at all is an error.
 */
export function takeBlockReference(entries: Array<[string, unknown]>): BlockReference {
  const [key, value] = takeFlattenedVariant(entries, 'BlockReference', REFERENCE_KEYS);
  return referenceOf(key, value);
}

/** The block reference of a request struct whose only field is a flattened `BlockReference`. */
export function parseBlockReference(params: unknown, structName: string): BlockReference {
  return takeBlockReference(structEntries(params, structName));
}

/**
 * `BlockReference` itself, read from the whole params (what `block` and `EXPERIMENTAL_protocol_config` parse:
 * nearcore's `Params<BlockReference>`): an externally tagged enum, so exactly one key, `block_id`, `finality`
 * or `sync_checkpoint`; a second key, or none, is "map with a single key".
 */
export function parseBlockReferenceEnum(params: unknown): BlockReference {
  const [key, value] = externallyTagged(params, {
    block_id: 'newtype',
    finality: 'newtype',
    sync_checkpoint: 'newtype',
  });
  return referenceOf(key, value);
}

export function resolveBlockId(chain: Chain, id: number | string): BlockRecord | undefined {
  return typeof id === 'number' ? chain.blockByHeight(id) : chain.blockByHash(id);
}

export function resolveBlock(chain: Chain, ref: BlockReference): BlockRecord | undefined {
  if ('block_id' in ref) return resolveBlockId(chain, ref.block_id);
  if ('finality' in ref) return chain.blockByHeight(chain.finalHeight(ref.finality));
  return ref.sync_checkpoint === 'genesis' ? chain.genesisBlock : chain.blockByHeight(chain.earliestHeight());
}

/** nearcore's "DB Not Found Error" text for a missing block. */
export function notFoundText(id: number | string, what: 'BLOCK' | 'BLOCK HEADER'): string {
  return typeof id === 'number'
    ? `DB Not Found Error: BLOCK HEIGHT: ${id} \n Cause: Unknown`
    : `DB Not Found Error: ${what}: ${id} \n Cause: Unknown`;
}
