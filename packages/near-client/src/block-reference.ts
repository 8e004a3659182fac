/** Which block a read is made at: a finality, or a block by height or hash. */
export type Finality = 'optimistic' | 'near-final' | 'final';

export type BlockReference = { finality: Finality } | { blockId: number | string };

/** The `finality` / `block_id` params of a read (default: optimistic). */
export function blockParams(
  at: BlockReference | undefined,
): { finality: Finality } | { block_id: number | string } {
  if (at === undefined) return { finality: 'optimistic' };
  return 'blockId' in at ? { block_id: at.blockId } : { finality: at.finality };
}
