// The registrar of a testnet twin, deployed on the `testnet` account: it creates top-level `*.testnet`
// accounts as NEAR testnet's `testnet` account does (the linkdrop contract's `create_account`, which
// near-api-js's `Account.createAccount` calls for `<name>.testnet`). The new account gets the full-access key
// and the attached deposit; the callback returns true, or false after sending the deposit back when the
// account could not be created (it exists, or is not a direct sub-account of `testnet`). The protocol decides
// what may be created, as on NEAR.
import "../lib/panic";
import { utf8 } from "../lib/bytes";
import { attachedDeposit, currentAccountId, predecessorAccountId } from "../lib/context";
import { parseArgs, quote, reqString } from "../lib/json";
import {
  addFullAccessKey,
  createAccount,
  functionCall,
  promiseBatchCreate,
  promiseBatchThen,
  promiseResult,
  promiseResultsCount,
  promiseReturn,
  TGAS,
  transfer,
} from "../lib/promises";
import { input, returnString } from "../lib/registers";
import { U128 } from "../lib/u128";
import { isValidAccountId } from "./account-id";
import { parseAmount } from "./amount";
import { parsePublicKey } from "./public-key";

/** Gas the callback gets (it only reads the result and may send one transfer). */
const ON_CREATE_ACCOUNT_CALLBACK_GAS: u64 = 13 * TGAS;

/** `create_account({new_account_id, new_public_key})`, payable: the deposit goes to the new account. */
export function create_account(): void {
  const args = parseArgs(input());
  const newAccountId = reqString(args, "new_account_id");
  const newPublicKey = reqString(args, "new_public_key");
  if (!isValidAccountId(newAccountId)) throw new Error("Invalid account id: " + newAccountId);
  const key = parsePublicKey(newPublicKey);
  if (key === null) {
    throw new Error(
      "Invalid argument `new_public_key`: expected ed25519:<base58 of 32 bytes> or secp256k1:<base58 of 64 bytes>, got " +
        newPublicKey,
    );
  }
  const amount = attachedDeposit();
  const create = promiseBatchCreate(newAccountId);
  createAccount(create);
  addFullAccessKey(create, key);
  transfer(create, amount);
  const callback = promiseBatchThen(create, currentAccountId());
  const callbackArgs =
    "{\"predecessor_account_id\":" + quote(predecessorAccountId()) + ",\"amount\":" + quote(amount.toString()) + "}";
  functionCall(callback, "on_account_created", utf8(callbackArgs), new U128(), ON_CREATE_ACCOUNT_CALLBACK_GAS);
  promiseReturn(callback);
}

/** The callback of `create_account`: true when the account was created; otherwise refunds and returns false. */
export function on_account_created(): void {
  if (predecessorAccountId() != currentAccountId()) throw new Error("Callback can only be called from the contract");
  if (promiseResultsCount() != 1) throw new Error("Contract expected a result on the callback");
  const args = parseArgs(input());
  const predecessor = reqString(args, "predecessor_account_id");
  const amountText = reqString(args, "amount");
  const amount = parseAmount(amountText);
  if (amount === null) throw new Error("Invalid argument `amount`: expected a decimal amount, got " + amountText);
  if (promiseResult(0).ok) {
    returnString("true");
    return;
  }
  if (!amount.isZero()) {
    const refund = promiseBatchCreate(predecessor);
    transfer(refund, amount);
  }
  returnString("false");
}
