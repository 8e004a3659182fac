#!/usr/bin/env node
// Checks that every import in the repo respects the layering (docs/architecture.md, "Layers and imports"):
//  (a) inside packages/node/src, a layer imports only itself and the layers before it:
//      config -> store -> trie -> state -> vm -> runtime -> chain -> rpc; files outside these folders (start-node.ts,
//      index.ts, logger.ts) wire everything and no layer imports them;
//  (b) packages talk only through their package names and exports: no `@shadebox/x/<path>` that x does not
//      export, no relative path out of a package, and the end-to-end tests (test/, bench/) do not reach into a
//      package's sources either (except its test-support/, the shared helpers in test/, and the few internals
//      tests still use, listed in TEST_INTERNALS);
//  (c) a package imports only the packages its row of PACKAGE_DEPENDENCIES allows (tests may import any).
// Imports are read with TypeScript's parser (static, type-only, re-exports, dynamic import(), import types).
// Usage: node scripts/check-layers.mjs [--root DIR]. Exit 1 with one line per violation (file:line, rule).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

/** The node's layers, in nearcore's crate order (core/parameters ... chain/jsonrpc). */
export const NODE_LAYERS = ['config', 'store', 'trie', 'state', 'vm', 'runtime', 'chain', 'rpc'];

/**
 * Which workspace packages each package's own code may import. Test code (`*.test.*`, `*.bench.*`,
 * `test-support/`, `test/`) may import any package. A package without a row may import none.
 */
export const PACKAGE_DEPENDENCIES = {
  errors: [],
  primitives: ['errors'],
  'http-fast-path': ['errors'],
  'near-client': ['primitives', 'errors'],
  // The explorer is browser code bundled to static files; the node only serves them (rpc/explorer-routes.ts).
  explorer: [],
  node: ['primitives', 'errors', 'http-fast-path', 'explorer'],
  mpc: ['primitives', 'errors', 'near-client'],
  'agent-api': ['primitives', 'errors', 'http-fast-path', 'near-client'],
  client: ['errors'],
  contracts: [],
  cli: [
    'errors',
    'primitives',
    'http-fast-path',
    'near-client',
    'node',
    'mpc',
    'agent-api',
    'contracts',
    'client',
  ],
  // The harness spawns the CLI's executable (found through @shadebox/cli/launch) and talks to the stack.
  testing: ['client', 'near-client', 'cli'],
};

/**
 * Package internals that tests (test/, bench/, other packages' tests) still import directly, each with why.
 * Paths are repo-relative and without extension. Remove an entry when its tests use the package's exports.
 */
export const TEST_INTERNALS = {
  'packages/node/src/rpc/rpc-error': "nearcore's error shapes and HTTP statuses, compared on the wire",
  'packages/node/src/rpc/methods/index': 'the list of served methods, checked against the client schema',
  'packages/agent-api/src/tee/dstack': 'the dstack key path the test serves',
  'packages/cli/src/chain-signatures/service': 'starts chain signatures in the test process',
  'packages/node/src/vm/prepare/prepare-contract': "the contracts' crypto test meters its functions with it",
  'packages/node/src/vm/prepare/test-helpers':
    "the contracts' crypto test instantiates prepared code with it",
};

const SOURCE_EXTENSIONS = /\.(?:[cm]?[jt]s|tsx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'build', '.git', '.shadebox', 'results', 'scratch']);

const posix = (p) => p.split(sep).join('/');
const stripExtension = (p) => p.replace(/\.(?:[cm]?[jt]s|tsx|d\.ts)$/, '');

function walk(dir, out) {
  if (!existsSync(dir)) return out;
  for (const name of readdirSync(dir)) {
    if (SKIPPED_DIRS.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, out);
    else if (SOURCE_EXTENSIONS.test(name) && !name.endsWith('.d.ts')) out.push(path);
  }
  return out;
}

/** Every module specifier in `text`, with its 1-based line. */
export function importsOf(fileName, text) {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (literal) => {
    if (!literal || !ts.isStringLiteralLike(literal)) return;
    const line = source.getLineAndCharacterOfPosition(literal.getStart(source)).line + 1;
    found.push({ specifier: literal.text, line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference))
      add(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      add(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** Test code: test files, benchmarks, test support, and anything under a test/ folder. */
export function isTestCode(path) {
  const parts = path.split('/');
  const base = parts[parts.length - 1];
  return (
    /\.(?:test|bench)\.[^.]+$/.test(base) ||
    /^test-helpers\.[^.]+$/.test(base) ||
    parts.some((p) => p === 'test-support' || p === 'test' || p === 'tests')
  );
}

function readPackages(root) {
  const byName = new Map();
  const dir = join(root, 'packages');
  if (!existsSync(dir)) return byName;
  for (const folder of readdirSync(dir)) {
    const manifest = join(dir, folder, 'package.json');
    if (!existsSync(manifest)) continue;
    const json = JSON.parse(readFileSync(manifest, 'utf8'));
    byName.set(json.name, { folder, exports: json.exports });
  }
  return byName;
}

/** Whether `subpath` (`./x`) is one of the package's exports (exact keys and `*` patterns). */
function exportsSubpath(exports, subpath) {
  if (!exports || typeof exports !== 'object') return false;
  return Object.keys(exports).some((key) => {
    if (key === subpath) return true;
    const star = key.indexOf('*');
    return star >= 0 && subpath.startsWith(key.slice(0, star)) && subpath.endsWith(key.slice(star + 1));
  });
}

/** Where a repo-relative path belongs: a package folder, or the repo's test/ or bench/. */
function ownerOf(path) {
  const parts = path.split('/');
  if (parts[0] === 'packages' && parts.length > 2) return { kind: 'package', name: parts[1] };
  return { kind: 'root', name: parts[0] };
}

/** The node layer of a path under packages/node/src: a layer name, 'wiring', or undefined outside it. */
function nodeLayerOf(path) {
  const prefix = 'packages/node/src/';
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length).split('/');
  if (rest.length > 1 && NODE_LAYERS.includes(rest[0])) return rest[0];
  return 'wiring';
}

export function checkLayers(root) {
  const packages = readPackages(root);
  const folderByName = new Map([...packages].map(([name, p]) => [name, p.folder]));
  const files = [
    ...walk(join(root, 'packages'), []),
    ...walk(join(root, 'test'), []),
    ...walk(join(root, 'bench'), []),
  ];
  const violations = [];
  let imports = 0;
  for (const file of files) {
    const path = posix(relative(root, file));
    const owner = ownerOf(path);
    const test = owner.kind === 'root' || isTestCode(path);
    const layer = nodeLayerOf(path);
    const report = (line, rule, message, specifier) =>
      violations.push({ path, line, rule, message, specifier });
    for (const { specifier, line } of importsOf(file, readFileSync(file, 'utf8'))) {
      imports++;
      if (specifier.startsWith('@shadebox/')) {
        const [scope, name, ...sub] = specifier.split('/');
        const target = `${scope}/${name}`;
        const folder = folderByName.get(target);
        if (sub.length > 0 && !exportsSubpath(packages.get(target)?.exports, `./${sub.join('/')}`)) {
          report(
            line,
            'deep import',
            `${target} does not export ./${sub.join('/')}: import ${target}`,
            specifier,
          );
        }
        if (owner.kind === 'package' && !test && folder !== undefined && folder !== owner.name) {
          const allowed = PACKAGE_DEPENDENCIES[owner.name] ?? [];
          if (!allowed.includes(folder)) {
            report(
              line,
              'package dependencies',
              `${owner.name} may not import ${target} (allowed: ${allowed.join(', ') || 'none'})`,
              specifier,
            );
          }
        }
        continue;
      }
      if (!specifier.startsWith('.')) continue;
      const targetPath = posix(relative(root, resolve(dirname(file), specifier)));
      const target = ownerOf(targetPath);
      const testInternal = test && Object.hasOwn(TEST_INTERNALS, stripExtension(targetPath));
      if (owner.kind === 'package') {
        const leaves = target.kind !== 'package' || target.name !== owner.name;
        // A package's tests may use the repo's shared end-to-end helpers (test/).
        const sharedTestHelper = test && target.kind === 'root' && target.name === 'test';
        if (leaves && !sharedTestHelper && !testInternal) {
          const into = target.kind === 'package' ? `package ${target.name}` : targetPath;
          report(
            line,
            'deep import',
            `relative import leaves package ${owner.name} (into ${into})`,
            specifier,
          );
        }
      } else if (target.kind === 'package') {
        const parts = targetPath.split('/');
        const testSupport = parts[2] === 'test-support';
        if (!testSupport && !testInternal) {
          report(
            line,
            'deep import',
            `${owner.name}/ reaches into package ${target.name}: import its package name`,
            specifier,
          );
        }
      }
      if (layer !== undefined && layer !== 'wiring') {
        const targetLayer = nodeLayerOf(targetPath);
        if (targetLayer === 'wiring') {
          report(line, 'node layers', `${layer} may not import the node's top-level wiring`, specifier);
        } else if (targetLayer && NODE_LAYERS.indexOf(targetLayer) > NODE_LAYERS.indexOf(layer)) {
          report(
            line,
            'node layers',
            `${layer} may not import ${targetLayer} (order: ${NODE_LAYERS.join(' -> ')})`,
            specifier,
          );
        }
      }
    }
  }
  return { files: files.length, imports, violations };
}

function main() {
  const args = process.argv.slice(2);
  const at = args.indexOf('--root');
  const root = at >= 0 ? resolve(args[at + 1]) : fileURLToPath(new URL('..', import.meta.url));
  const { files, imports, violations } = checkLayers(root);
  for (const v of violations) {
    console.error(`${v.path}:${v.line}: [${v.rule}] ${v.message} ('${v.specifier}')`);
  }
  if (violations.length > 0) {
    console.error(`check-layers: ${violations.length} violation(s) in ${files} files (docs/architecture.md)`);
    process.exit(1);
  }
  console.log(`check-layers: ${imports} imports in ${files} files follow the layers`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
