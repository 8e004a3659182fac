/**
 * `shadebox block [HEIGHT|HASH]`: a block's header and, chunk by chunk, the transactions it includes and the
 * receipts it carries (the latest block without an argument).
 */
import { type BlockReference, type BlockView, block, type Finality, RpcError } from '@shadebox/near-client';
import { parseFlagsAndArgs } from '../args.js';
import { type CliIo, processIo } from '../cli-io.js';
import { EXIT_OK } from '../exit-codes.js';
import { describeAction } from '../inspect/describe-actions.js';
import { formatTgas, formatTimestamp } from '../inspect/format-units.js';
import { NotFoundError } from '../inspect/not-found-error.js';
import { rpcTarget, TARGET_HELP, TARGET_OPTIONS } from '../inspect/rpc-target.js';
import { jsonText, runInspection } from '../inspect/run-inspection.js';
import { formatRows, type Row } from '../inspect/text-table.js';
import { UsageError } from '../usage-error.js';

const COMMAND = 'shadebox block';
const FINALITIES: readonly Finality[] = ['optimistic', 'near-final', 'final'];

export const BLOCK_HELP = `Usage: shadebox block [HEIGHT | HASH] [--finality F] [--rpc URL] [--home DIR] [--json]

Shows a block: height, hash, parent, time, author, gas price, and for each shard's new chunk the
transactions it includes (hash, signer → receiver, actions) and the receipts it carries (the outgoing
receipts of the shard's previous chunk). Without HEIGHT or HASH, the latest block (at --finality).
With --json: {"block": the RPC's block view, "chunks": [the RPC's view of each new chunk]}.

Options:
  --finality F   optimistic (default), near-final or final: which latest block, when none is named
${TARGET_HELP}
Exit codes: 0 shown, 1 unknown block or no answer, 2 bad command line.
`;

const OPTIONS = { finality: { type: 'string' }, ...TARGET_OPTIONS } as const;

interface ChunkView {
  header: { chunk_hash: string; shard_id: number; gas_used: number; gas_limit: number };
  transactions: Array<{ hash: string; signer_id: string; receiver_id: string; actions: unknown[] }>;
  receipts: Array<{ receipt_id: string; predecessor_id: string; receiver_id: string }>;
}

export async function blockCommand(args: readonly string[], io: CliIo = processIo()): Promise<number> {
  const { flags, positionals } = parseFlagsAndArgs(COMMAND, args, OPTIONS);
  if (flags.help) {
    io.stdout.write(BLOCK_HELP);
    return EXIT_OK;
  }
  const [id, extra] = positionals;
  if (extra !== undefined) throw new UsageError(COMMAND, `unexpected argument '${extra}'`, extra);
  let at: BlockReference;
  if (id === undefined) {
    const finality = (flags.finality ?? 'optimistic') as Finality;
    if (!FINALITIES.includes(finality)) {
      throw new UsageError(
        COMMAND,
        `invalid value '${flags.finality}' for --finality: expected optimistic, near-final or final`,
        '--finality',
      );
    }
    at = { finality };
  } else {
    if (flags.finality !== undefined) {
      throw new UsageError(
        COMMAND,
        '--finality and a block HEIGHT or HASH cannot be used together',
        '--finality',
      );
    }
    if (/^\d+$/.test(id) && Number.isSafeInteger(Number(id))) at = { blockId: Number(id) };
    else if (/^[1-9A-HJ-NP-Za-km-z]{32,44}$/.test(id)) at = { blockId: id };
    else throw new UsageError(COMMAND, `invalid block '${id}': expected a height or a base58 block hash`, id);
  }
  const { rpc, url } = rpcTarget(COMMAND, io.cwd, flags);
  return runInspection(COMMAND, io, url, async () => {
    let view: BlockView;
    try {
      view = await block(rpc, at);
    } catch (error) {
      if (error instanceof RpcError && id !== undefined && error.causeName === 'UNKNOWN_BLOCK') {
        throw new NotFoundError(
          'block',
          id,
          `block ${id} is not known to ${url} (not made yet, or older than its history: try an archival --rpc)`,
        );
      }
      throw error;
    }
    const height = view.header.height;
    // A chunk header whose height_included is not this block's is the shard's older chunk, carried over.
    const newChunks = view.chunks.filter((c) => c.height_included === height);
    const chunks = await Promise.all(
      newChunks.map((c) => rpc.call<ChunkView>('chunk', { chunk_id: c.chunk_hash })),
    );
    if (flags.json) {
      io.stdout.write(jsonText({ block: view, chunks }));
      return EXIT_OK;
    }
    io.stdout.write(formatBlock(view, chunks));
    return EXIT_OK;
  });
}

function formatBlock(view: BlockView, chunks: ChunkView[]): string {
  const h = view.header;
  const rows: Row[] = [
    ['Block', `${h.height}`],
    ['Hash', h.hash],
    ['Parent', h.prev_hash],
    ['Time', formatTimestamp(h.timestamp_nanosec)],
    ['Author', view.author],
    ['Epoch', h.epoch_id],
    ['Gas price', `${h.gas_price} yoctoNEAR per gas`],
    ['Shards', `${view.chunks.length} (${chunks.length} with a new chunk)`],
  ];
  let text = formatRows(rows);
  for (const chunk of chunks) {
    const c = chunk.header;
    text += `Chunk of shard ${c.shard_id}  ${c.chunk_hash}  gas ${formatTgas(c.gas_used)} of ${formatTgas(c.gas_limit)}\n`;
    if (chunk.transactions.length === 0) text += '  no transactions\n';
    for (const tx of chunk.transactions) {
      text += `  tx ${tx.hash}  ${tx.signer_id} → ${tx.receiver_id}\n`;
      for (const a of tx.actions) text += `      ${describeAction(a)}\n`;
    }
    for (const r of chunk.receipts) {
      text += `  receipt ${r.receipt_id}  ${r.predecessor_id} → ${r.receiver_id}\n`;
    }
  }
  return text;
}
