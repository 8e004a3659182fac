// Common access checks, with near-sdk's wording where near-sdk has one.
import { currentAccountId, predecessorAccountId } from "./context";

/** near-sdk's `#[private]`: only the contract itself may call `method`. */
export function assertPrivate(method: string): void {
  if (predecessorAccountId() != currentAccountId()) throw new Error("Method " + method + " is private");
}
