/**
 * nearcore's OpenAPI-derived Zod schemas as @near-js/jsonrpc-types 1.7.3 has them (the first release with the
 * EXPERIMENTAL_view_* and EXPERIMENTAL_receipt_to_tx schemas; the npm registry reachable here has only 1.4.0).
 * Its source sits beside the repository in `../shared/peer-suites/near-jsonrpc-types-1.7.3/` (SOURCE.md there);
 * its `schemas.ts` is loaded from a temp directory whose `node_modules/zod` is test-clients' zod. Undefined
 * when either is absent, so tests validate where they can and say so.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..', '..', '..', '..');
const SCHEMAS = join(
  REPO_ROOT,
  '..',
  'shared',
  'peer-suites',
  'near-jsonrpc-types-1.7.3',
  'src',
  'schemas.ts',
);
const ZOD = join(REPO_ROOT, 'test-clients', 'node_modules', 'zod');

export interface JsonRpcTypes {
  /** The schema `name` (e.g. `RpcViewAccountResponseSchema`). */
  // biome-ignore lint/suspicious/noExplicitAny: zod/mini schemas, loaded at run time.
  schema(name: string): { safeParse(value: unknown): { success: boolean; error?: { issues: any[] } } };
  /** What @near-js/jsonrpc-client does to an answer before validating it: snake_case keys to camelCase. */
  toCamel(value: unknown): unknown;
}

let loaded: Promise<JsonRpcTypes | undefined> | undefined;

export function loadJsonRpcTypes173(): Promise<JsonRpcTypes | undefined> {
  loaded ??= load();
  return loaded;
}

async function load(): Promise<JsonRpcTypes | undefined> {
  if (!existsSync(SCHEMAS) || !existsSync(ZOD)) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'jsonrpc-types-1.7.3-'));
  mkdirSync(join(dir, 'node_modules'));
  symlinkSync(ZOD, join(dir, 'node_modules', 'zod'), 'dir');
  copyFileSync(SCHEMAS, join(dir, 'schemas.ts'));
  const mod = (await import(pathToFileURL(join(dir, 'schemas.ts')).href)) as Record<string, () => unknown>;
  return {
    schema(name) {
      const make = mod[name];
      if (typeof make !== 'function') throw new Error(`@near-js/jsonrpc-types 1.7.3 has no ${name}`);
      return make() as ReturnType<JsonRpcTypes['schema']>;
    },
    toCamel,
  };
}

function toCamel(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toCamel);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([k, v]) => [
      k.replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase()),
      toCamel(v),
    ]),
  );
}
