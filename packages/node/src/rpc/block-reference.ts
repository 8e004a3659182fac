/**
 * Block references (`finality`, `block_id` or `sync_checkpoint`) and resolving them to a stored block.
 */
import type { Chain } from '../chain/chain.js';
import type { BlockRecord } from '../chain/records.js';
import { failParse, type Params, typeName } from './params.js';

export type BlockReference =
  | { block_id: number | string }
  | { finality: 'optimistic' | 'near-final' | 'final' }
  | { sync_checkpoint: 'genesis' | 'earliest_available' };

const FINALITIES = ['optimistic', 'near-final', 'final'];
const CHECKPOINTS = ['genesis', 'earliest_available'];

/** serde's "unknown variant" message: `unknown variant \`x\`, expected one of \`a\`, \`b\``. */
export function unknownVariant(value: unknown, variants: readonly string[]): never {
  const expected = `expected one of ${variants.map((v) => `\`${v}\``).join(', ')}`;
  if (typeof value === 'string') failParse(`unknown variant \`${value}\`, ${expected}`);
  failParse(`invalid type: ${typeName(value)}, ${expected}`);
}

/** `BlockId`, nearcore's untagged `Height(u64) | Hash(CryptoHash)`. */
export function parseBlockId(value: unknown): number | string {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === 'string' && /^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value)) return value;
  failParse('data did not match any variant of untagged enum BlockId');
}

/**
 * Reads the block reference of named params: nearcore's `#[serde(flatten)] BlockReference`, an externally
 * tagged enum read from the flattened keys. serde takes the first key, in document order, that names a variant
 * (`block_id`, `finality`, `sync_checkpoint`) and ignores the others; none at all is an error.
 */
export function parseBlockReference(p: Params, required = true): BlockReference | undefined {
  const key = Object.keys(p).find((k) => k === 'block_id' || k === 'finality' || k === 'sync_checkpoint');
  if (key === undefined) {
    if (required) failParse('no variant of enum BlockReference found in flattened data');
    return undefined;
  }
  if (key === 'block_id') return { block_id: parseBlockId(p.block_id) };
  if (key === 'finality') {
    if (typeof p.finality !== 'string' || !FINALITIES.includes(p.finality))
      unknownVariant(p.finality, FINALITIES);
    return { finality: p.finality as 'optimistic' | 'near-final' | 'final' };
  }
  if (typeof p.sync_checkpoint !== 'string' || !CHECKPOINTS.includes(p.sync_checkpoint))
    unknownVariant(p.sync_checkpoint, CHECKPOINTS);
  return { sync_checkpoint: p.sync_checkpoint as 'genesis' | 'earliest_available' };
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
