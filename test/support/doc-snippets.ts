/**
 * The code snippets of README.md, docs/*.md and python/README.md that test/docs-snippets.test.ts runs. The convention (written
 * in docs/testing.md): a fence tagged `sh`, `ts`, `js` or `python` runs, unless the line before it (blank lines
 * aside) is `<!-- no-run: <reason> -->`; fences with any other tag (`json`, none) are shown output and do not run.
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
}

const RUNNABLE = new Set<string>(['sh', 'ts', 'js', 'python']);
const NO_RUN = /^<!--\s*no-run:\s*(.*?)\s*-->$/;

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
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const marker = before >= 0 ? NO_RUN.exec(lines[before]!.trim()) : null;
      const code = lines
        .slice(i + 1, end)
        .map((l) => l.slice(Math.min(indent, l.length - l.trimStart().length)))
        .join('\n');
      out.push({
        where: `${file}:${i + 1}`,
        language: tag as SnippetLanguage,
        code: `${code}\n`,
        ...(marker ? { noRun: marker[1]! } : {}),
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
