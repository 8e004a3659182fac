/**
 * The names of the functions a Wasm module exports, read from its export section without compiling it: a
 * NEAR contract's methods are its exported functions, so this is how a contract's flow is told apart.
 */
import { ShadeboxError } from '@shadebox/errors';

/** The bytes are not a Wasm module, or its sections cannot be read. */
export class WasmModuleError extends ShadeboxError<{ offset: number }> {
  constructor(message: string, offset: number) {
    super(message, { details: { offset }, docsPath: 'docs/chain-signatures.md#your-own-agent-contract' });
  }
}

const MAGIC = [0x00, 0x61, 0x73, 0x6d];
const EXPORT_SECTION = 7;
const FUNCTION_KIND = 0;

/** Exported function names, in the module's order. */
export function wasmExportedFunctions(code: Uint8Array): string[] {
  if (code.length < 8 || MAGIC.some((b, i) => code[i] !== b)) {
    throw new WasmModuleError('not a Wasm module (no \\0asm header)', 0);
  }
  let at = 8;
  const u32 = (): number => {
    let result = 0;
    let shift = 0;
    for (;;) {
      if (at >= code.length) throw new WasmModuleError('truncated Wasm module', at);
      const byte = code[at++]!;
      result += (byte & 0x7f) * 2 ** shift;
      if ((byte & 0x80) === 0) return result;
      shift += 7;
      if (shift > 28) throw new WasmModuleError('malformed LEB128 integer in the Wasm module', at);
    }
  };
  const names: string[] = [];
  while (at < code.length) {
    const id = code[at++]!;
    const size = u32();
    const end = at + size;
    if (end > code.length) throw new WasmModuleError('truncated Wasm section', at);
    if (id === EXPORT_SECTION) {
      const count = u32();
      for (let i = 0; i < count; i++) {
        const length = u32();
        if (at + length > end) throw new WasmModuleError('truncated export name', at);
        const name = new TextDecoder().decode(code.subarray(at, at + length));
        at += length;
        const kind = code[at++];
        u32(); // the index
        if (kind === FUNCTION_KIND) names.push(name);
      }
    }
    at = end;
  }
  return names;
}
