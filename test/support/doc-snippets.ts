/**
 * The code snippets of README.md, docs/*.md and python/README.md that test/docs-snippets.test.ts runs. The convention (written
 * in docs/testing.md): a fence tagged `sh`, `ts`, `js` or `python` runs; fences with any other tag (`json`, none)
 * are shown output and do not run. Markers on the lines right before a fence (blank lines aside), one a line:
 *
 * - `<!-- no-run: <reason> -->`: it does not run;
 * - `<!-- stack: <flags> -->`: it runs against a stack of its own, `shadebox up <flags>` (one per set of flags,
 *   shared by the snippets naming it), rather than the plain `shadebox up` the others share;
 * - `<!-- cwd: repository -->`: it runs in the repository's root (a step done from a Shadebox checkout).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export type SnippetLanguage = 'sh' | 'ts' | 'js' | 'python';

export interface Snippet {
  /** `docs/cli.md:212`: the file and the line of the opening fence. */
  where: string;
  language: SnippetLanguage;
  code: string;
  /** The reason given in `<!-- no-run: … -->`, when the snippet is not run. */
  noRun?: string;
  /** The flags of `<!-- stack: … -->`: the `shadebox up` the snippet runs against, when not the plain one. */
  stack?: string[];
  /** `<!-- cwd: repository -->`: run in the repository's root. */
  inRepository?: boolean;
}

const RUNNABLE = new Set<string>(['sh', 'ts', 'js', 'python']);
const MARKER = /^<!--\s*([a-z-]+):\s*(.*?)\s*-->$/;

/** The markers right before line `fence` (blank lines aside), as `name → value`. */
function markersBefore(lines: string[], fence: number, where: string): Map<string, string> {
  const markers = new Map<string, string>();
  for (let i = fence - 1; i >= 0; i--) {
    const line = lines[i]!.trim();
    if (line === '') continue;
    const marker = MARKER.exec(line);
    if (!marker) break;
    const [, name, value] = marker;
    if (!['no-run', 'stack', 'cwd'].includes(name!)) throw new Error(`${where}: unknown marker ${line}`);
    if (name === 'cwd' && value !== 'repository')
      throw new Error(`${where}: ${line}: only "cwd: repository"`);
    markers.set(name!, value!);
  }
  return markers;
}

/** The runnable-language fences of one Markdown text. */
export function extractSnippets(markdown: string, file: string): Snippet[] {
  const lines = markdown.split('\n');
  const out: Snippet[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = /^(\s*)```(\w*)\s*$/.exec(lines[i]!);
    if (!open) continue;
    const indent = open[1]!.length;
    const tag = open[2]!;
    let end = i + 1;
    while (end < lines.length && !/^\s*```\s*$/.test(lines[end]!)) end++;
    if (RUNNABLE.has(tag)) {
      const where = `${file}:${i + 1}`;
      const markers = markersBefore(lines, i, where);
      const code = lines
        .slice(i + 1, end)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join('\n');
      const noRun = markers.get('no-run');
      const stack = markers.get('stack');
      out.push({
        where,
        language: tag as SnippetLanguage,
        code: `${code}\n`,
        ...(noRun !== undefined ? { noRun } : {}),
        ...(stack !== undefined ? { stack: stack.split(/\s+/).filter(Boolean) } : {}),
        ...(markers.has('cwd') ? { inRepository: true } : {}),
      });
    }
    i = end;
  }
  return out;
}

/** Every snippet of README.md, docs/*.md (by name) and python/README.md, in that order. */
export function repositorySnippets(root: string): Snippet[] {
  const files = [
    'README.md',
    ...readdirSync(join(root, 'docs'))
      .filter((f) => f.endsWith('.md'))
      .sort()
      .map((f) => `docs/${f}`),
    'python/README.md',
  ];
  return files.flatMap((file) => extractSnippets(readFileSync(join(root, file), 'utf8'), file));
}

/** A shell line that starts a server in the foreground (`shadebox up`, `shadebox node` but not `node init`). */
export function startsServer(line: string): boolean {
  return /^(npx )?shadebox (up|node)\b(?! init)/.test(line.trim());
}

/** A TypeScript snippet written for vitest (it imports from `vitest`): it runs under `vitest run`. */
export function isVitestSuite(snippet: Snippet): boolean {
  return snippet.language === 'ts' && /^import [^;]* from 'vitest';$/m.test(snippet.code);
}
