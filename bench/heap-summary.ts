/**
 * The largest retainers in a V8 heap snapshot (`.heapsnapshot`), for `bench/memory-probe.ts`: self size by
 * node type and constructor, and the size reachable from each instance of the node's long-lived holders (the
 * store, the caches, the VM's contract cache), without following functions, contexts or weak edges (so a
 * holder's figure is its own data, not the module graph it can reach).
 *
 *   node --max-old-space-size=4096 --import tsx bench/heap-summary.ts <file.heapsnapshot>
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface Snapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
    node_count: number;
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export interface HeapSummary {
  totalBytes: number;
  nodeCount: number;
  byType: [string, number][];
  byConstructor: [string, number, number][];
  holders: [string, number, number][];
}

/** Constructors whose reachable size is reported: the node's stores, caches and VM holders. */
const HOLDERS = [
  'MemoryStore',
  'SortedMap',
  'RecentRecords',
  'ReadCache',
  'ContractCache',
  'MemoryPool',
  'BlockMerkleTree',
  'GarbageCollector',
  'ChainStore',
  'VersionedState',
  'TxPool',
  'Map',
];

export function summarizeHeapSnapshot(file: string): HeapSummary {
  const json = JSON.parse(readFileSync(file, 'utf8')) as Snapshot;
  const { meta } = json.snapshot;
  const nf = meta.node_fields.length;
  const ef = meta.edge_fields.length;
  const typeOff = meta.node_fields.indexOf('type');
  const nameOff = meta.node_fields.indexOf('name');
  const sizeOff = meta.node_fields.indexOf('self_size');
  const edgeCountOff = meta.node_fields.indexOf('edge_count');
  const edgeTypeOff = meta.edge_fields.indexOf('type');
  const edgeToOff = meta.edge_fields.indexOf('to_node');
  const nodeTypes = meta.node_types[0];
  const edgeTypes = meta.edge_types[0];
  const { nodes, edges, strings } = json;
  const count = nodes.length / nf;
  const firstEdge = new Uint32Array(count + 1);
  for (let i = 0, e = 0; i < count; i++) {
    firstEdge[i] = e;
    e += nodes[i * nf + edgeCountOff] * ef;
    firstEdge[i + 1] = e;
  }
  const typeOf = (i: number) => nodeTypes[nodes[i * nf + typeOff]];
  const nameOf = (i: number) => strings[nodes[i * nf + nameOff]];
  const sizeOf = (i: number) => nodes[i * nf + sizeOff];

  let total = 0;
  const byType = new Map<string, number>();
  const byCtor = new Map<string, [number, number]>();
  for (let i = 0; i < count; i++) {
    const size = sizeOf(i);
    total += size;
    const type = typeOf(i);
    byType.set(type, (byType.get(type) ?? 0) + size);
    const key = type === 'object' || type === 'native' ? `${type}:${nameOf(i)}` : type;
    const entry = byCtor.get(key) ?? [0, 0];
    entry[0] += size;
    entry[1]++;
    byCtor.set(key, entry);
  }

  const skipType = new Set(['code', 'closure', 'hidden', 'synthetic', 'object shape']);
  const weak = edgeTypes.indexOf('weak');
  const visited = new Uint32Array(count);
  let stamp = 0;
  const reachable = (start: number): number => {
    stamp++;
    let size = 0;
    const stack = [start];
    visited[start] = stamp;
    while (stack.length > 0) {
      const i = stack.pop()!;
      size += sizeOf(i);
      for (let e = firstEdge[i]; e < firstEdge[i + 1]; e += ef) {
        if (edges[e + edgeTypeOff] === weak) continue;
        const to = edges[e + edgeToOff] / nf;
        if (visited[to] === stamp) continue;
        visited[to] = stamp;
        const type = typeOf(to);
        if (skipType.has(type)) continue;
        if (type === 'object' && nameOf(to) === 'system / Context') continue;
        stack.push(to);
      }
    }
    return size;
  };
  const holders: [string, number, number][] = [];
  for (let i = 0; i < count; i++) {
    if (typeOf(i) !== 'object' || !HOLDERS.includes(nameOf(i))) continue;
    const size = reachable(i);
    if (size >= 256 * 1024) holders.push([`${nameOf(i)} #${i}`, size, firstEdge[i + 1] - firstEdge[i]]);
  }
  holders.sort((a, b) => b[1] - a[1]);
  return {
    totalBytes: total,
    nodeCount: count,
    byType: [...byType].sort((a, b) => b[1] - a[1]),
    byConstructor: [...byCtor]
      .map(([k, [s, n]]): [string, number, number] => [k, s, n])
      .sort((a, b) => b[1] - a[1])
      .slice(0, 25),
    holders: holders.slice(0, 25),
  };
}

export function formatHeapSummary(summary: HeapSummary): string {
  const mib = (b: number) => `${(b / 1048576).toFixed(2)} MiB`;
  return [
    `heap snapshot: ${mib(summary.totalBytes)} in ${summary.nodeCount} nodes`,
    'by type:',
    ...summary.byType.slice(0, 10).map(([t, s]) => `  ${t.padEnd(24)} ${mib(s)}`),
    'by constructor (self size, count):',
    ...summary.byConstructor.map(([t, s, n]) => `  ${t.slice(0, 40).padEnd(40)} ${mib(s).padStart(12)} ${n}`),
    'holders (reachable size without functions and contexts):',
    ...summary.holders.map(([t, s]) => `  ${t.padEnd(40)} ${mib(s).padStart(12)}`),
  ].join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  console.log(formatHeapSummary(summarizeHeapSnapshot(process.argv[2])));
}
