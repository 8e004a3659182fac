/**
 * Compiles contract/PriceOracle.sol with solc-js (the npm package `solc`: the compiler as WebAssembly, nothing
 * downloaded) into contract/PriceOracle.json, the artefact the agent deploys: the ABI, the creation and runtime
 * bytecode, the compiler's version and settings and the source's sha256. `--check` compiles and compares with
 * the committed artefact instead of writing it (exit 1 when they differ); compile.test.ts does the same.
 *
 *   node --import tsx examples/oracle-agent/compile.ts [--check]
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';

const SOURCE_NAME = 'PriceOracle.sol';
const CONTRACT_NAME = 'PriceOracle';
export const SOURCE_PATH = fileURLToPath(new URL('./contract/PriceOracle.sol', import.meta.url));
export const ARTIFACT_PATH = fileURLToPath(new URL('./contract/PriceOracle.json', import.meta.url));

/** Fixed compiler settings, so the bytecode depends on the source and the compiler version only. `cancun`
 * runs on anvil's default hardfork and on Sepolia. */
const SETTINGS = { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun' } as const;

export interface OracleArtifact {
  contractName: string;
  sourceName: string;
  sourceSha256: string;
  compiler: { name: 'solc-js'; version: string; settings: typeof SETTINGS };
  abi: unknown[];
  /** Creation code (deploy it with the constructor's argument appended). */
  bytecode: `0x${string}`;
  /** The code the contract account holds once deployed (immutables left as zeros). */
  deployedBytecode: `0x${string}`;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

interface SolcOutput {
  errors?: Array<{ severity: 'error' | 'warning' | 'info'; formattedMessage: string }>;
  contracts?: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode: { object: string } } }
    >
  >;
}

/** Compiles the oracle's source; throws with solc's messages when it has errors or warnings. */
export async function compileOracle(source = readFileSync(SOURCE_PATH, 'utf8')): Promise<OracleArtifact> {
  const solc = ((await import('solc')) as { default: Solc }).default;
  const input = {
    language: 'Solidity',
    sources: { [SOURCE_NAME]: { content: source } },
    settings: {
      ...SETTINGS,
      outputSelection: {
        [SOURCE_NAME]: { [CONTRACT_NAME]: ['abi', 'evm.bytecode.object', 'evm.deployedBytecode.object'] },
      },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((e) => e.severity !== 'info');
  if (problems.length > 0) throw new Error(problems.map((e) => e.formattedMessage).join('\n'));
  const compiled = output.contracts?.[SOURCE_NAME]?.[CONTRACT_NAME];
  if (!compiled) throw new Error(`solc gave no ${CONTRACT_NAME} in ${SOURCE_NAME}`);
  return {
    contractName: CONTRACT_NAME,
    sourceName: SOURCE_NAME,
    sourceSha256: createHash('sha256').update(source).digest('hex'),
    compiler: { name: 'solc-js', version: solc.version(), settings: SETTINGS },
    abi: compiled.abi,
    bytecode: `0x${compiled.evm.bytecode.object}`,
    deployedBytecode: `0x${compiled.evm.deployedBytecode.object}`,
  };
}

/** The committed artefact. */
export function readArtifact(): OracleArtifact {
  return JSON.parse(readFileSync(ARTIFACT_PATH, 'utf8')) as OracleArtifact;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const artifact = await compileOracle();
  if (process.argv.includes('--check')) {
    const same = isDeepStrictEqual(artifact, readArtifact());
    console.error(same ? `${ARTIFACT_PATH} is up to date` : `${ARTIFACT_PATH} differs from the source`);
    process.exitCode = same ? 0 : 1;
  } else {
    writeFileSync(ARTIFACT_PATH, `${JSON.stringify(artifact, null, 2)}\n`);
    console.error(`wrote ${ARTIFACT_PATH} (solc ${artifact.compiler.version})`);
  }
}
