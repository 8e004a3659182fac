/** The export reader against hand-made modules, and the registration flow told from the exports. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { registrationFlowOf } from './registration-flow.js';
import { WasmModuleError, wasmExportedFunctions } from './wasm-exports.js';

const HEADER = [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00];

/** A section: id, LEB128 size, body. */
function section(id: number, body: number[]): number[] {
  return [id, ...leb(body.length), ...body];
}

function leb(n: number): number[] {
  const out: number[] = [];
  do {
    let byte = n & 0x7f;
    n >>>= 7;
    if (n !== 0) byte |= 0x80;
    out.push(byte);
  } while (n !== 0);
  return out;
}

/** An export section of `(name, kind, index)` entries. */
function exportSection(entries: Array<[string, number]>): number[] {
  const body = [...leb(entries.length)];
  entries.forEach(([name, kind], i) => {
    const bytes = [...new TextEncoder().encode(name)];
    body.push(...leb(bytes.length), ...bytes, kind, ...leb(kind === 0 ? i : 0));
  });
  return section(7, body);
}

/** A valid module: one `() -> ()` type, `functions` bodies, a memory, and the given exports. */
function moduleWith(functions: string[], extra: Array<[string, number]> = []): Uint8Array {
  const type = section(1, [1, 0x60, 0, 0]);
  const funcs = section(3, [...leb(functions.length), ...functions.map(() => 0)]);
  const memory = section(5, [1, 0, 1]);
  const exports = exportSection([...functions.map((f): [string, number] => [f, 0]), ...extra]);
  const body = [0, 0x0b];
  const code = section(10, [
    ...leb(functions.length),
    ...functions.flatMap(() => [...leb(body.length), ...body]),
  ]);
  return Uint8Array.from([...HEADER, ...type, ...funcs, ...memory, ...exports, ...code]);
}

describe('wasmExportedFunctions', () => {
  it('lists the exported functions in order, not memories, as WebAssembly.Module.exports does', () => {
    const names = ['new', 'register_agent', 'whitelist_agent', 'ünïcode'];
    const code = moduleWith(names, [['memory', 2]]);
    assert.deepEqual(wasmExportedFunctions(code), names);
    const reference = WebAssembly.Module.exports(new WebAssembly.Module(code))
      .filter((e) => e.kind === 'function')
      .map((e) => e.name);
    assert.deepEqual(wasmExportedFunctions(code), reference);
  });

  it('reads past a section longer than 127 bytes (multi-byte sizes)', () => {
    const names = Array.from({ length: 40 }, (_, i) => `method_number_${i}`);
    assert.deepEqual(wasmExportedFunctions(moduleWith(names)), names);
  });

  it('a module without exports has none', () => {
    assert.deepEqual(wasmExportedFunctions(Uint8Array.from(HEADER)), []);
  });

  it('refuses what is not a Wasm module, or is cut short', () => {
    assert.throws(() => wasmExportedFunctions(new TextEncoder().encode('{"not":"wasm"}')), WasmModuleError);
    assert.throws(() => wasmExportedFunctions(Uint8Array.from([0, 0x61, 0x73])), /not a Wasm module/);
    const code = moduleWith(['init', 'register_agent']);
    assert.throws(() => wasmExportedFunctions(code.subarray(0, code.length - 8)), /truncated/);
  });
});

describe('registrationFlowOf', () => {
  it('whitelist_agent with register_agent is the whitelist flow (the 2.0 template)', () => {
    assert.equal(
      registrationFlowOf(['new', 'whitelist_agent', 'register_agent', 'request_signature']),
      'whitelist',
    );
  });
  it('register_agent without whitelist_agent is the codehash flow (the built-in contract)', () => {
    assert.equal(registrationFlowOf(['init', 'approve_codehash', 'register_agent']), 'codehash');
  });
  it('whitelist_agent_for_local is the released 2.0 flow (the template, the built-in agent-v2)', () => {
    assert.equal(
      registrationFlowOf(['new', 'whitelist_agent_for_local', 'register_agent', 'request_signature']),
      'whitelist-local',
    );
  });
  it('no register_agent: not an agent contract', () => {
    assert.equal(registrationFlowOf(['init', 'whitelist_agent', 'sign']), undefined);
  });
});
