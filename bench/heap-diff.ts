/**
 * What grew between two V8 heap snapshots of one process (`bench/soak-heap.ts` writes them): self size and
 * count by node type and constructor, the largest growths first, and for the few that grew most, the
 * retainer chain of one instance (from the instance up to a GC root, through the first strong retainer at each
 * step), which names the Map, array or object that keeps them.
 *
 *   node --max-old-space-size=4096 --import tsx bench/heap-diff.ts <before.heapsnapshot> <after.heapsnapshot>
 *     [--top 30] [--chains 8]
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';

interface RawSnapshot {
  snapshot: {
    meta: { node_fields: string[]; node_types: [string[]]; edge_fields: string[]; edge_types: [string[]] };
  };
  nodes: number[];
  edges: number[];
  strings: string[];
}

export class HeapGraph {
  readonly count: number;
  readonly #nf: number;
  readonly #ef: number;
  readonly #off: {
    type: number;
    name: number;
    size: number;
    edges: number;
    edgeType: number;
    to: number;
    edgeName: number;
  };
  readonly #nodeTypes: string[];
  readonly #edgeTypes: string[];
  readonly firstEdge: Uint32Array;
  #retainers: Int32Array | undefined;
  #retainerEdge: Int32Array | undefined;

  constructor(readonly raw: RawSnapshot) {
    const { meta } = raw.snapshot;
    this.#nf = meta.node_fields.length;
    this.#ef = meta.edge_fields.length;
    this.#off = {
      type: meta.node_fields.indexOf('type'),
      name: meta.node_fields.indexOf('name'),
      size: meta.node_fields.indexOf('self_size'),
      edges: meta.node_fields.indexOf('edge_count'),
      edgeType: meta.edge_fields.indexOf('type'),
      to: meta.edge_fields.indexOf('to_node'),
      edgeName: meta.edge_fields.indexOf('name_or_index'),
    };
    this.#nodeTypes = meta.node_types[0];
    this.#edgeTypes = meta.edge_types[0];
    this.count = raw.nodes.length / this.#nf;
    this.firstEdge = new Uint32Array(this.count + 1);
    for (let i = 0, e = 0; i < this.count; i++) {
      this.firstEdge[i] = e;
      e += raw.nodes[i * this.#nf + this.#off.edges] * this.#ef;
      this.firstEdge[i + 1] = e;
    }
  }

  type(i: number): string {
    return this.#nodeTypes[this.raw.nodes[i * this.#nf + this.#off.type]];
  }
  name(i: number): string {
    return this.raw.strings[this.raw.nodes[i * this.#nf + this.#off.name]];
  }
  size(i: number): number {
    return this.raw.nodes[i * this.#nf + this.#off.size];
  }
  /** The grouping key: constructor for objects, the type otherwise (strings, code, arrays...). */
  key(i: number): string {
    const type = this.type(i);
    return type === 'object' || type === 'native' || type === 'closure' ? `${type}:${this.name(i)}` : type;
  }

  byKey(): Map<string, { size: number; count: number }> {
    const out = new Map<string, { size: number; count: number }>();
    for (let i = 0; i < this.count; i++) {
      const k = this.key(i);
      const entry = out.get(k) ?? { size: 0, count: 0 };
      entry.size += this.size(i);
      entry.count++;
      out.set(k, entry);
    }
    return out;
  }

  #buildRetainers(): void {
    if (this.#retainers) return;
    const weak = this.#edgeTypes.indexOf('weak');
    this.#retainers = new Int32Array(this.count).fill(-1);
    this.#retainerEdge = new Int32Array(this.count).fill(-1);
    const { edges } = this.raw;
    for (let i = 0; i < this.count; i++) {
      for (let e = this.firstEdge[i]; e < this.firstEdge[i + 1]; e += this.#ef) {
        if (edges[e + this.#off.edgeType] === weak) continue;
        const to = edges[e + this.#off.to] / this.#nf;
        if (this.#retainers[to] === -1) {
          this.#retainers[to] = i;
          this.#retainerEdge[to] = e;
        }
      }
    }
  }

  #edgeLabel(e: number): string {
    const type = this.#edgeTypes[this.raw.edges[e + this.#off.edgeType]];
    const nameOrIndex = this.raw.edges[e + this.#off.edgeName];
    return type === 'element' || type === 'hidden' ? `[${nameOrIndex}]` : `.${this.raw.strings[nameOrIndex]}`;
  }

  /** Up to `depth` steps from node i towards a root, each "retainer --edge--> node". */
  retainerChain(i: number, depth = 14): string[] {
    this.#buildRetainers();
    const chain: string[] = [];
    const seen = new Set<number>([i]);
    let node = i;
    for (let step = 0; step < depth; step++) {
      const parent = this.#retainers![node];
      if (parent < 0 || seen.has(parent)) break;
      seen.add(parent);
      chain.push(`${this.key(parent)} ${this.#edgeLabel(this.#retainerEdge![node])}`);
      node = parent;
    }
    return chain;
  }

  /** Indexes of the nodes with this key, the last ones (the most recently allocated, in V8's order) first. */
  instances(key: string, limit: number): number[] {
    const out: number[] = [];
    for (let i = this.count - 1; i >= 0 && out.length < limit; i--) if (this.key(i) === key) out.push(i);
    return out;
  }
}

export function loadHeapGraph(file: string): HeapGraph {
  return new HeapGraph(JSON.parse(readFileSync(file, 'utf8')) as RawSnapshot);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { top: { type: 'string', default: '30' }, chains: { type: 'string', default: '8' } },
  });
  const [beforeFile, afterFile] = positionals;
  const before = loadHeapGraph(beforeFile).byKey();
  const afterGraph = loadHeapGraph(afterFile);
  const after = afterGraph.byKey();
  const mib = (b: number) => `${(b / 1048576).toFixed(2)} MiB`;
  const total = (m: Map<string, { size: number }>) => [...m.values()].reduce((s, v) => s + v.size, 0);
  console.log(`live heap: ${mib(total(before))} -> ${mib(total(after))}`);
  const growth = [...after]
    .map(([k, a]) => {
      const b = before.get(k) ?? { size: 0, count: 0 };
      return { key: k, size: a.size - b.size, count: a.count - b.count, now: a.count };
    })
    .sort((x, y) => y.size - x.size);
  console.log('grew most (self size, count; count now):');
  for (const g of growth.slice(0, Number(values.top))) {
    console.log(
      `  ${g.key.slice(0, 60).padEnd(60)} ${mib(g.size).padStart(11)} ${String(g.count).padStart(8)} ${g.now}`,
    );
  }
  for (const g of growth.slice(0, Number(values.chains))) {
    for (const i of afterGraph.instances(g.key, 2)) {
      console.log(`\n${g.key} #${i} (${afterGraph.size(i)} B) retained by:`);
      for (const step of afterGraph.retainerChain(i)) console.log(`    <- ${step}`);
    }
  }
}
