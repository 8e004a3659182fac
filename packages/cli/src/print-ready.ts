/**
 * What a server command prints once it is ready: either exactly one JSON line on stdout (`--json`), for
 * programs that start the CLI and wait for it, or a readable summary for people.
 */
import type { ProductionMode, RunningNode } from '@shadebox/node';

/** The `--json` ready line, field for field. `home` is null for an in-memory node. */
export interface ReadyEvent {
  event: 'ready';
  rpcUrl: string;
  /** Only when the node serves an archival endpoint (`--archival-port`). */
  archivalRpcUrl?: string;
  chainId: string;
  home: string | null;
  accounts: Array<{ accountId: string; publicKey: string; secretKey: string }>;
}

export function readyEvent(node: RunningNode, extra: Record<string, unknown> = {}): ReadyEvent {
  return {
    event: 'ready',
    rpcUrl: node.rpcUrl,
    ...(node.archivalRpcUrl === undefined ? {} : { archivalRpcUrl: node.archivalRpcUrl }),
    ...extra,
    chainId: node.chainId,
    home: node.home,
    accounts: node.accounts.map(({ accountId, publicKey, secretKey }) => ({
      accountId,
      publicKey,
      secretKey,
    })),
  };
}

/** The ready line, with its newline. */
export function formatReadyLine(node: RunningNode, extra?: Record<string, unknown>): string {
  return `${JSON.stringify(readyEvent(node, extra))}\n`;
}

export interface SummaryOptions {
  /** First line, e.g. `Shadebox node ready`. */
  title: string;
  node: RunningNode;
  /** Where the genesis account's key is stored (a home's validator_key.json), or null for an in-memory node. */
  keyFile: string | null;
  /** Lines printed after the table. */
  notes?: readonly string[];
  /** Rows added after the node's (e.g. the chain-signature contracts). */
  extraRows?: Array<[string, string]>;
}

/** The readable summary. Secret keys appear only for an in-memory node: a home keeps them in its key file. */
export function formatSummary(options: SummaryOptions): string {
  const { node } = options;
  const rows: Array<[string, string]> = [
    ['RPC', node.rpcUrl],
    ...(node.archivalRpcUrl === undefined ? [] : [['Archival RPC', node.archivalRpcUrl] as [string, string]]),
    ['Chain id', node.chainId],
    ['Home', node.home ?? '(in memory: the chain is discarded on exit)'],
    ['Shards', String(node.chain.numShards)],
    ['Blocks', describeProduction(node.producer.mode, node.producer.yieldBlockTimeMs)],
  ];
  for (const account of node.accounts) {
    rows.push(['Account', account.accountId]);
    rows.push(['Public key', account.publicKey]);
    if (options.keyFile === null) rows.push(['Secret key', account.secretKey]);
    else rows.push(['Key file', options.keyFile]);
  }
  rows.push(...(options.extraRows ?? []));
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [
    options.title,
    ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`),
    ...(options.notes ?? []),
    'Press Ctrl+C to stop.',
  ];
  return `${lines.join('\n')}\n`;
}

/** `yieldBlockTimeMs`: automine's pace while a yield waits for its resume. */
export function describeProduction(mode: ProductionMode, yieldBlockTimeMs?: number): string {
  switch (mode.kind) {
    case 'automine':
      return yieldBlockTimeMs === undefined
        ? 'automine (a block as soon as there is work)'
        : `automine (a block as soon as there is work; one every ${yieldBlockTimeMs} ms while a yield waits)`;
    case 'interval':
      return `one every ${mode.blockTimeMs} ms`;
    case 'manual':
      return 'manual (only when asked)';
  }
}
