/**
 * The transaction log's EVM lines: watches the local EVM chain (anvil) for transactions that carry a chain
 * signature the NEAR node answered, and prints `evm  0x… in block N carries the signature for request … —
 * success` for each (@shadebox/node's `evmSignatureLine`). The node's side keeps the answers as its blocks
 * execute (`rememberChainSignatureAnswers`); this side polls the EVM chain's head, reads each new block with
 * its transactions, and matches each transaction's r, s and y parity against them. Only blocks made after the
 * watcher started are read. When the EVM chain goes back (`evm_revert`: a block read has another hash now),
 * the blocks from the last one it still has are read again.
 */
import type { ChainSignatureAnswers, Colours, RunningNode } from '@shadebox/node';

/** Between two looks at the EVM chain's head. anvil answers in well under a millisecond. */
const DEFAULT_POLL_MS = 500;
/** Blocks read per look: a burst of blocks is read over the next looks rather than in one. */
const BLOCKS_PER_POLL = 100;
const REQUEST_TIMEOUT_MS = 10_000;
/** Hashes of the blocks read lately, kept to see a revert: deeper ones are read again from the oldest kept. */
const REMEMBERED_BLOCKS = 256;

export interface EvmSignatureWatchOptions {
  /** The EVM chain's JSON-RPC (`http://127.0.0.1:8545`). */
  rpcUrl: string;
  /** The running node whose answered signatures are looked for (`startNode`'s result). */
  node: Pick<RunningNode, 'chain'>;
  /** Where the lines go (the CLI: stderr, beside the transaction log). */
  write(text: string): void;
  colours?: Colours;
  pollMs?: number;
  /** A look at the EVM chain failed (it stopped, or answered an error); the watcher carries on. Called once
   * per run of failures, not on every look. */
  onError?(error: Error): void;
}

export interface EvmSignatureWatch {
  /** Stops looking (after the look in progress) and forgets the answers. */
  stop(): Promise<void>;
}

interface RpcTx {
  hash: string;
  r?: string;
  s?: string;
  v: string;
  yParity?: string;
}

interface RpcBlock {
  number: string;
  hash: string;
  parentHash: string;
  /** Hashes, or the transactions when asked for in full. */
  transactions: Array<RpcTx | string>;
}

export async function watchEvmSignatures(options: EvmSignatureWatchOptions): Promise<EvmSignatureWatch> {
  const { evmSignatureLine, NO_COLOURS, rememberChainSignatureAnswers } = await import('@shadebox/node');
  const answers: ChainSignatureAnswers = rememberChainSignatureAnswers(options.node.chain);
  const colours = options.colours ?? NO_COLOURS;
  const pollMs = options.pollMs ?? DEFAULT_POLL_MS;
  const call = <T>(method: string, params: unknown[]) => rpc<T>(options.rpcUrl, method, params);

  // The last block read, and the hashes of the blocks read lately: a revert is seen as a hash that changed.
  let last: bigint | undefined;
  const hashes = new Map<bigint, string>();
  const remember = (n: bigint, hash: string) => {
    hashes.set(n, hash);
    hashes.delete(n - BigInt(REMEMBERED_BLOCKS));
  };
  let failing = false;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const blockAt = (n: bigint | 'latest', full: boolean) =>
    call<RpcBlock | null>('eth_getBlockByNumber', [typeof n === 'bigint' ? `0x${n.toString(16)}` : n, full]);

  /** After a revert: the highest block read that the chain still has (or the oldest remembered, less one). */
  const forkPoint = async (from: bigint): Promise<bigint> => {
    let n = from;
    while (n >= 0n && hashes.has(n)) {
      const block = await blockAt(n, false);
      if (block?.hash === hashes.get(n)) return n;
      hashes.delete(n);
      n--;
    }
    return n;
  };

  const look = async () => {
    const head = await blockAt('latest', false);
    if (!head) return;
    const headNumber = BigInt(head.number);
    if (last === undefined) {
      // The first answer: blocks from here on.
      last = headNumber;
      remember(headNumber, head.hash);
      return;
    }
    if (headNumber <= last && hashes.get(headNumber) === head.hash) {
      // Nothing new, or back to a block read before (a revert with no block since).
      last = headNumber;
      return;
    }
    // The head is not past the last block read but is another block: the chain went back.
    if (headNumber <= last) last = await forkPoint(headNumber);
    const to = headNumber - last > BLOCKS_PER_POLL ? last + BigInt(BLOCKS_PER_POLL) : headNumber;
    for (let n = last + 1n; n <= to && !stopped; n++) {
      // Nothing answered yet: no transaction can carry an answer, the block's hash is enough.
      const block = await blockAt(n, answers.size > 0);
      if (!block) return;
      const parent = hashes.get(n - 1n);
      if (parent !== undefined && parent !== block.parentHash) {
        // The chain changed under this look: the next one finds where.
        last = await forkPoint(n - 1n);
        return;
      }
      for (const tx of block.transactions) if (typeof tx === 'object') await check(tx, n);
      remember(n, block.hash);
      last = n;
    }
  };

  const check = async (tx: RpcTx, n: bigint) => {
    if (!tx.r || !tx.s) return;
    const answer = answers.find({ r: BigInt(tx.r), s: BigInt(tx.s), parity: parityOf(tx) });
    if (!answer) return;
    const receipt = await call<{ status?: string } | null>('eth_getTransactionReceipt', [tx.hash]).catch(
      () => null,
    );
    const status =
      receipt?.status === undefined ? 'unknown' : BigInt(receipt.status) === 1n ? 'success' : 'reverted';
    options.write(evmSignatureLine({ txHash: tx.hash, blockNumber: Number(n), status, answer }, colours));
  };

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = look().then(
        () => {
          failing = false;
        },
        (error: Error) => {
          if (!failing) options.onError?.(error);
          failing = true;
        },
      );
      void running.then(schedule);
    }, pollMs);
    // The watcher never keeps the process alive on its own.
    timer.unref();
  };
  // Where the chain is now; later blocks are read.
  running = look().catch(() => undefined);
  await running;
  schedule();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      answers.stop();
    },
  };
}

/** The y parity an EVM transaction's signature says: its `yParity` (typed), or from `v` (27/28, or EIP-155's
 * chainId·2 + 35/36). */
export function parityOf(tx: { v: string; yParity?: string }): number {
  if (tx.yParity !== undefined) return Number(BigInt(tx.yParity) & 1n);
  const v = BigInt(tx.v);
  return Number((v >= 35n ? v - 35n : v >= 27n ? v - 27n : v) & 1n);
}

async function rpc<T>(url: string, method: string, params: unknown[]): Promise<T> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const body = (await response.json()) as { result?: T; error?: { message?: string } };
  if (body.error) throw new Error(`EVM ${method}: ${body.error.message ?? JSON.stringify(body.error)}`);
  return body.result as T;
}
