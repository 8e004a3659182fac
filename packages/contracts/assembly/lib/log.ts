import { log_utf8 } from "./env";

export function log(msg: string): void {
  const b = String.UTF8.encode(msg);
  log_utf8(<u64>b.byteLength, <u64>changetype<usize>(b));
}
