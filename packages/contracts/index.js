// Paths of the compiled contracts (`npm run build` in this package writes them) and readers that say so
// when the build is missing.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const signerWasmPath = fileURLToPath(new URL('./build/signer.wasm', import.meta.url));
export const agentWasmPath = fileURLToPath(new URL('./build/agent.wasm', import.meta.url));
export const agentV2WasmPath = fileURLToPath(new URL('./build/agent-v2.wasm', import.meta.url));
export const registrarWasmPath = fileURLToPath(new URL('./build/registrar.wasm', import.meta.url));

function read(path, name) {
  if (!existsSync(path)) {
    throw new Error(
      `${name} contract is not built (${path} is missing): run \`npm run build -w @shadebox/contracts\` (or \`npm ci\` at the repository root)`,
    );
  }
  return readFileSync(path);
}

/** The signer contract's Wasm. */
export function readSignerWasm() {
  return read(signerWasmPath, 'The signer');
}

/** The agent contract's Wasm. */
export function readAgentWasm() {
  return read(agentWasmPath, 'The agent');
}

/** The 2.0 agent contract's Wasm (the Shade Agent Framework 2.0 template's interface). */
export function readAgentV2Wasm() {
  return read(agentV2WasmPath, 'The 2.0 agent');
}

/** The registrar contract's Wasm (the `testnet` account of a testnet twin). */
export function readRegistrarWasm() {
  return read(registrarWasmPath, 'The registrar');
}
