// Panics with `panic_utf8`, so a failure reads "Smart contract panicked: <msg>" in the outcome.
// `abort` is wired to AssemblyScript's `throw` (build flag `--use abort=...`), so `throw new Error(msg)`
// ends the call with exactly `msg` and the compiler knows the branch does not continue.
import { panic_utf8 } from "./env";

export function panicStr(msg: string): void {
  const b = String.UTF8.encode(msg);
  panic_utf8(<u64>b.byteLength, <u64>changetype<usize>(b));
  unreachable();
}

// eslint-disable-next-line @typescript-eslint/no-unused-vars
export function nearAbort(message: string | null, fileName: string | null, line: u32, column: u32): void {
  panicStr(message !== null ? message : "abort");
}
