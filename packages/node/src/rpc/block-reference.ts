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

export function parseBlockId(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || value < 0)
      failParse(`invalid value: ${typeName(value)}, expected u64`);
    return value;
  }
  if (typeof value === 'string') {
    if (!/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(value))
      failParse(`invalid value: ${typeName(value)}, expected a base58 block hash`);
    return value;
  }
  failParse(`invalid type: ${typeName(value)}, expected a block height or hash`);
}

/** Reads the block reference of named params. `required`: whether one must be present. */
export function parseBlockReference(p: Params, required = true): BlockReference | undefined {
  const present = ['block_id', 'finality', 'sync_checkpoint'].filter((k) => p[k] !== undefined);
  if (present.length > 1)
    failParse(
      `expected one of \`block_id\`, \`finality\`, \`sync_checkpoint\`, got ${present.join(' and ')}`,
    );
  if (present.length === 0) {
    if (required) failParse('missing field `block_id` or `finality`');
    return undefined;
  }
  if (p.block_id !== undefined) return { block_id: parseBlockId(p.block_id) };
  if (p.finality !== undefined) {
    if (typeof p.finality !== 'string' || !FINALITIES.includes(p.finality)) {
      failParse(
        `unknown variant ${typeName(p.finality)}, expected one of \`optimistic\`, \`near-final\`, \`final\``,
      );
    }
    return { finality: p.finality as 'optimistic' | 'near-final' | 'final' };
  }
  if (typeof p.sync_checkpoint !== 'string' || !CHECKPOINTS.includes(p.sync_checkpoint)) {
    failParse(
      `unknown variant ${typeName(p.sync_checkpoint)}, expected one of \`genesis\`, \`earliest_available\``,
    );
  }
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
