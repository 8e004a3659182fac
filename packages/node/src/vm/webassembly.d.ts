/**
 * The slice of the WebAssembly JS API the VM uses. The project's TS lib is ES2023 without DOM, and
 * @types/node 20 does not declare the `WebAssembly` global, so it is declared here.
 */
declare namespace WebAssembly {
  class Module {
    constructor(bytes: BufferSource);
    static imports(module: Module): { module: string; name: string; kind: string }[];
    static exports(module: Module): { name: string; kind: string }[];
  }
  class Instance {
    constructor(module: Module, imports?: Record<string, Record<string, unknown>>);
    readonly exports: Record<string, unknown>;
  }
  class Memory {
    constructor(descriptor: { initial: number; maximum?: number });
    readonly buffer: ArrayBuffer;
    grow(delta: number): number;
  }
  class Table {
    readonly length: number;
    get(index: number): unknown;
  }
  class Global {
    constructor(descriptor: { value: 'i32' | 'i64' | 'f32' | 'f64'; mutable?: boolean }, value?: unknown);
    value: unknown;
  }
  class RuntimeError extends Error {}
  class CompileError extends Error {}
  class LinkError extends Error {}
  function validate(bytes: BufferSource): boolean;
}
type BufferSource = ArrayBufferView | ArrayBuffer;
