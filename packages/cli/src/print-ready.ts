/**
 * What a server command prints once it is ready: either exactly one JSON line on stdout (`--json`), for
 * programs that start the CLI and wait for it, or a readable summary for people.
 */
import type { ProductionMode, RunningNode } from '@shadebox/node';
import { curlLine, nearApiJsSnippet } from './first-steps.js';

type KeyedAccount = { accountId: string; publicKey: string; secretKey: string };

/** The explorer page of a node (served on its RPC port). */
export function explorerUrl(rpcUrl: string): string {
  return `${rpcUrl}/explorer`;
}

/** The `--json` ready line, field for field. `home` is null for an in-memory node. */
export interface ReadyEvent {
  event: 'ready';
  rpcUrl: string;
  /** Only when the node serves an archival endpoint (`--archival-port`). */
  archivalRpcUrl?: string;
  /** The explorer page, on the RPC port. */
  explorerUrl: string;
  chainId: string;
  home: string | null;
  accounts: KeyedAccount[];
  /** The funded dev accounts with their keys (`--accounts`, `--seed`). */
  devAccounts: KeyedAccount[];
}

export function readyEvent(node: RunningNode, extra: Record<string, unknown> = {}): ReadyEvent {
  return {
    event: 'ready',
    rpcUrl: node.rpcUrl,
    ...(node.archivalRpcUrl === undefined ? {} : { archivalRpcUrl: node.archivalRpcUrl }),
    explorerUrl: explorerUrl(node.rpcUrl),
    ...extra,
    chainId: node.chainId,
    home: node.home,
    accounts: node.accounts.map(keyed),
    devAccounts: node.devAccounts.map(keyed),
  };
}

function keyed({ accountId, publicKey, secretKey }: KeyedAccount): KeyedAccount {
  return { accountId, publicKey, secretKey };
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
  /** How blocks will be made, when not as now (`shadebox up --manual`: after the stack's setup). */
  production?: ProductionMode;
}

/**
 * The readable summary: the URLs and the chain, the genesis account, the services' rows, the dev accounts with
 * their keys, and a curl line and a near-api-js snippet to try. The genesis account's secret key appears only
 * for an in-memory node: a home keeps it in its key file. The dev accounts' keys are printed: they derive from
 * a seed and hold test tokens only (docs/cli.md).
 */
export function formatSummary(options: SummaryOptions): string {
  const { node } = options;
  const production = options.production ?? node.producer.mode;
  const rows: Array<[string, string]> = [
    ['RPC', node.rpcUrl],
    ...(node.archivalRpcUrl === undefined ? [] : [['Archival RPC', node.archivalRpcUrl] as [string, string]]),
    ['Explorer', explorerUrl(node.rpcUrl)],
    ['Chain id', node.chainId],
    ['Home', node.home ?? '(in memory: the chain is discarded on exit)'],
    ['Shards', String(node.chain.numShards)],
    [
      'Blocks',
      describeProduction(
        production,
        production.kind === 'automine' ? node.producer.yieldBlockTimeMs : undefined,
      ),
    ],
  ];
  for (const account of node.accounts) {
    rows.push(['Account', account.accountId]);
    rows.push(['Public key', account.publicKey]);
    if (options.keyFile === null) rows.push(['Secret key', account.secretKey]);
    else rows.push(['Key file', options.keyFile]);
  }
  rows.push(...(options.extraRows ?? []));
  const width = Math.max(...rows.map(([label]) => label.length));
  const lines = [options.title, ...rows.map(([label, value]) => `  ${label.padEnd(width)}  ${value}`)];
  lines.push(...devAccountLines(node.devAccounts), ...tryItLines(node));
  lines.push(...(options.notes ?? []), '', 'Press Ctrl+C to stop.');
  return `${lines.join('\n')}\n`;
}

function devAccountLines(accounts: readonly KeyedAccount[]): string[] {
  if (accounts.length === 0) return [];
  const width = Math.max(...accounts.map((a) => a.accountId.length));
  return [
    '',
    `Dev accounts (${accounts.length}, funded at genesis; account and its full-access key):`,
    ...accounts.map((a) => `  ${a.accountId.padEnd(width)}  ${a.secretKey}`),
  ];
}

/** A curl line and a near-api-js snippet with the first dev account (the genesis account without any). */
function tryItLines(node: RunningNode): string[] {
  const from = node.devAccounts[0] ?? (node.home === null ? node.accounts[0] : undefined);
  const lines = ['', 'Try it:', `  ${curlLine(node.rpcUrl, from?.accountId ?? node.accounts[0].accountId)}`];
  if (from === undefined) return lines;
  const to = node.devAccounts[1]?.accountId ?? node.accounts[0].accountId;
  lines.push(
    '',
    '  near-api-js (npm install near-api-js), as try.mjs, run with: node try.mjs',
    ...nearApiJsSnippet(node.rpcUrl, from, to).map((line) => (line === '' ? '' : `    ${line}`)),
  );
  return lines;
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
