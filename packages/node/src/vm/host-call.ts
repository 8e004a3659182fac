/**
 * The function V8 calls when a contract calls a host function: keeps the gas counter in step with the
 * instance's `remaining_gas` around the call and hands the host function its i64 arguments as u64.
 *
 * It runs on every host call, so it is made per signature rather than generic: a wrapper of the exact arity
 * (no rest array, no spread) that converts only what may need it. V8 passes an i64 as a signed BigInt; a
 * non-negative one already is the u64 and is passed on as is, without allocating another BigInt.
 */
import type { VMLogic } from './vm-logic.js';

// biome-ignore lint/suspicious/noExplicitAny: host functions take and return Wasm values of several types.
export type HostFn = (...args: any[]) => unknown;

const TWO_64 = 1n << 64n;
const u64 = (x: bigint): bigint => (x < 0n ? x + TWO_64 : x);

/** Before a host call: count the gas the Wasm code burnt. Returns the global to hand back to after it (none
 * outside a running instance). */
function enter(vm: VMLogic): WebAssembly.Global | undefined {
  const g = vm.remainingGas;
  if (g) vm.gas.syncFromWasm(g);
  return g;
}

function leave(vm: VMLogic, g: WebAssembly.Global | undefined): void {
  if (g) vm.gas.syncToWasm(g);
}

/** Wraps `fn`, whose Wasm parameters are `params` (`I` i64, `i` i32, …: host-signatures.ts). */
export function hostCall(vm: VMLogic, fn: HostFn, params: string): HostFn {
  if (/^I*$/.test(params)) {
    switch (params.length) {
      case 0:
        return () => {
          const g = enter(vm);
          try {
            return fn();
          } finally {
            leave(vm, g);
          }
        };
      case 1:
        return (a: bigint) => {
          const g = enter(vm);
          try {
            return fn(u64(a));
          } finally {
            leave(vm, g);
          }
        };
      case 2:
        return (a: bigint, b: bigint) => {
          const g = enter(vm);
          try {
            return fn(u64(a), u64(b));
          } finally {
            leave(vm, g);
          }
        };
      case 3:
        return (a: bigint, b: bigint, c: bigint) => {
          const g = enter(vm);
          try {
            return fn(u64(a), u64(b), u64(c));
          } finally {
            leave(vm, g);
          }
        };
      case 4:
        return (a: bigint, b: bigint, c: bigint, d: bigint) => {
          const g = enter(vm);
          try {
            return fn(u64(a), u64(b), u64(c), u64(d));
          } finally {
            leave(vm, g);
          }
        };
    }
  }
  return (...a: unknown[]) => {
    const g = enter(vm);
    try {
      for (let i = 0; i < a.length; i++) if (typeof a[i] === 'bigint') a[i] = u64(a[i] as bigint);
      return fn(...a);
    } finally {
      leave(vm, g);
    }
  };
}
