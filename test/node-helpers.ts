/**
 * Shared pieces of the node end-to-end tests (test/node-*.test.ts): a node with near-api-js clients, raw
 * JSON-RPC, the pinned fee schedule as arithmetic on RPC action views, and the chain-wide balance checks
 * (conservation of tokens, total supply in block headers, burnt amounts per block and per outcome).
 *
 * Every expected amount is computed here from `loadRuntimeConfig()` and the protocol's rules, never from the
 * node's own runtime code, so a test can catch the runtime getting a rule wrong.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import {
  loadRuntimeConfig,
  type RunningNode,
  type StartNodeOptions,
  silentLogger,
  startNode,
} from '@shadebox/node';
import {
  Account,
  baseDecode,
  baseEncode,
  JsonRpcProvider,
  KeyPair,
  KeyPairSigner,
  type KeyPairString,
} from 'near-api-js';

export type RuntimeConfig = ReturnType<typeof loadRuntimeConfig>;
// biome-ignore lint/suspicious/noExplicitAny: RPC results are checked field by field by the tests.
export type Json = any;

export const NEAR = 10n ** 24n;
export const TGAS = 10n ** 12n;

// ---- JSON-RPC ------------------------------------------------------------------------------------------

export class RpcCallError extends Error {
  constructor(
    readonly method: string,
    readonly error: Json,
  ) {
    super(`${method}: ${JSON.stringify(error)}`);
  }
}

/** One JSON-RPC call; returns `{ result }` or `{ error }` as the node answered. */
export async function rpcRaw(
  url: string,
  method: string,
  params: unknown,
): Promise<{ result?: Json; error?: Json }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'test', method, params }),
  });
  const body: Json = await response.json();
  return 'error' in body ? { error: body.error } : { result: body.result };
}

export async function rpc(url: string, method: string, params: unknown): Promise<Json> {
  const { result, error } = await rpcRaw(url, method, params);
  if (error) throw new RpcCallError(method, error);
  return result;
}

// ---- node ----------------------------------------------------------------------------------------------

export interface TestNode {
  node: RunningNode;
  url: string;
  provider: JsonRpcProvider;
  /** `test.near`, the genesis account, with its full-access key. */
  root: Account;
  rootId: string;
  cfg: RuntimeConfig;
  fees: Fees;
  /** An Account signing with `secretKey`. */
  account(accountId: string, secretKey: KeyPairString | KeyPair): Account;
  stop(): Promise<void>;
}

export async function startTestNode(options: StartNodeOptions = {}): Promise<TestNode> {
  const node = await startNode({ memory: true, rpcPort: 0, log: silentLogger, ...options });
  const provider = new JsonRpcProvider({ url: node.rpcUrl });
  const cfg = loadRuntimeConfig();
  const account = (accountId: string, key: KeyPairString | KeyPair) =>
    new Account(
      accountId,
      provider,
      typeof key === 'string' ? KeyPairSigner.fromSecretKey(key) : new KeyPairSigner(key),
    );
  const [validator] = node.accounts;
  return {
    node,
    url: node.rpcUrl,
    provider,
    root: account(validator.accountId, validator.secretKey as KeyPairString),
    rootId: validator.accountId,
    cfg,
    fees: new Fees(cfg),
    account,
    stop: () => node.stop(),
  };
}

export function newKey(): KeyPair {
  return KeyPair.fromRandom('ed25519');
}

// ---- state views ---------------------------------------------------------------------------------------

export interface AccountState {
  amount: bigint;
  locked: bigint;
  storageUsage: number;
}

export type BlockRef = { finality: 'optimistic' | 'near-final' | 'final' } | { block_id: number | string };

/** `view_account`, or undefined when the account does not exist (UNKNOWN_ACCOUNT). */
export async function viewAccount(
  url: string,
  accountId: string,
  at: BlockRef = { finality: 'final' },
): Promise<AccountState | undefined> {
  const { result, error } = await rpcRaw(url, 'query', {
    request_type: 'view_account',
    account_id: accountId,
    ...at,
  });
  if (error) {
    assert.equal(error.cause?.name, 'UNKNOWN_ACCOUNT', `view_account ${accountId}: ${JSON.stringify(error)}`);
    return undefined;
  }
  return { amount: BigInt(result.amount), locked: BigInt(result.locked), storageUsage: result.storage_usage };
}

export async function balanceOf(url: string, accountId: string, at?: BlockRef): Promise<bigint> {
  const account = await viewAccount(url, accountId, at);
  assert.ok(account, `${accountId} should exist`);
  return account.amount;
}

/** `view_access_key`, or undefined when the key does not exist. */
export async function viewAccessKey(
  url: string,
  accountId: string,
  publicKey: string,
  at: BlockRef = { finality: 'final' },
): Promise<Json | undefined> {
  const { result, error } = await rpcRaw(url, 'query', {
    request_type: 'view_access_key',
    account_id: accountId,
    public_key: publicKey,
    ...at,
  });
  if (error) {
    assert.equal(error.cause?.name, 'UNKNOWN_ACCESS_KEY', JSON.stringify(error));
    return undefined;
  }
  // nearcore answers a missing key with a result carrying `error` (kept for backward compatibility).
  if (typeof result.error === 'string') {
    assert.equal(result.error, `access key ${publicKey} does not exist while viewing`);
    return undefined;
  }
  return result;
}

export async function block(url: string, ref: BlockRef): Promise<Json> {
  return rpc(url, 'block', ref);
}

export async function blockHeight(url: string, blockHash: string): Promise<number> {
  return (await block(url, { block_id: blockHash })).header.height;
}

/** The gas price the chunks of block `height` were applied with: the previous block's `gas_price`. */
export async function applyGasPrice(url: string, height: number): Promise<bigint> {
  return BigInt((await block(url, { block_id: height - 1 })).header.gas_price);
}

// ---- transactions --------------------------------------------------------------------------------------

export interface TxRef {
  hash: string;
  signer: string;
}

/** `EXPERIMENTAL_tx_status` (with `receipts`) waiting for `waitUntil` (default FINAL). */
export async function txStatus(url: string, tx: TxRef, waitUntil = 'FINAL'): Promise<Json> {
  return rpc(url, 'EXPERIMENTAL_tx_status', {
    tx_hash: tx.hash,
    sender_account_id: tx.signer,
    wait_until: waitUntil,
  });
}

export const refOf = (result: Json): TxRef => ({
  hash: result.transaction.hash,
  signer: result.transaction.signer_id,
});

/** sha256 of the borsh transaction: its hash. */
export function txHashOf(signed: { transaction: { encode(): Uint8Array } }): Uint8Array {
  return new Uint8Array(createHash('sha256').update(signed.transaction.encode()).digest());
}

export function base64Of(signed: { encode(): Uint8Array }): string {
  return Buffer.from(signed.encode()).toString('base64');
}

/** The outcome of receipt `id` in a tx status, and its receipt view when the status has it. */
export function receiptOutcome(status: Json, id: string): Json {
  const outcome = status.receipts_outcome.find((o: Json) => o.id === id);
  assert.ok(outcome, `no outcome for receipt ${id}`);
  return outcome;
}

export function receiptView(status: Json, id: string): Json | undefined {
  return status.receipts?.find((r: Json) => r.receipt_id === id);
}

/** The deposit of a refund receipt (one Transfer), from the tx status' `receipts`. */
export function refundDeposit(status: Json, id: string): bigint {
  const view = receiptView(status, id);
  assert.ok(view, `receipt ${id} should be in EXPERIMENTAL_tx_status receipts`);
  assert.equal(view.predecessor_id, 'system');
  const [action] = view.receipt.Action.actions;
  return BigInt(action.Transfer.deposit);
}

// ---- fees ----------------------------------------------------------------------------------------------

const isNearImplicit = (id: string) => /^[0-9a-f]{64}$/.test(id);
const isEthImplicit = (id: string) => /^0x[0-9a-f]{40}$/.test(id);

/**
 * The pinned fee schedule applied to RPC `ActionView`s (runtime/runtime/src/config.rs of nearcore): send fees
 * burnt at conversion, execution fees burnt by the receipt, and the gas a transaction buys for its receipt.
 */
export class Fees {
  constructor(readonly cfg: RuntimeConfig) {}

  private fee(name: keyof RuntimeConfig['fees']) {
    return this.cfg.fees[name];
  }

  /** Gas of `action` picked by `pick` (a send or the execution component). */
  private actionGas(
    action: Json,
    receiverId: string,
    pick: (f: { sendSir: bigint; sendNotSir: bigint; execution: bigint }) => bigint,
  ): bigint {
    if (action === 'CreateAccount') return pick(this.fee('create_account'));
    const [[kind, body]] = Object.entries(action) as [[string, Json]];
    switch (kind) {
      case 'Transfer': {
        let gas = pick(this.fee('transfer'));
        if (isNearImplicit(receiverId))
          gas += pick(this.fee('create_account')) + pick(this.fee('add_full_access_key'));
        else if (isEthImplicit(receiverId) && this.cfg.wasm.ethImplicitAccounts)
          gas += pick(this.fee('create_account'));
        return gas;
      }
      case 'FunctionCall': {
        const bytes = Buffer.byteLength(body.method_name) + Buffer.from(body.args, 'base64').length;
        return pick(this.fee('function_call_base')) + pick(this.fee('function_call_byte')) * BigInt(bytes);
      }
      case 'AddKey': {
        const permission = body.access_key.permission;
        if (permission === 'FullAccess') return pick(this.fee('add_full_access_key'));
        const names: string[] = permission.FunctionCall.method_names;
        const bytes = names.reduce((n, name) => n + Buffer.byteLength(name) + 1, 0);
        return (
          pick(this.fee('add_function_call_key_base')) +
          pick(this.fee('add_function_call_key_byte')) * BigInt(bytes)
        );
      }
      case 'DeleteKey':
        return pick(this.fee('delete_key'));
      case 'DeleteAccount':
        return pick(this.fee('delete_account'));
      case 'Stake':
        return pick(this.fee('stake'));
      case 'Delegate':
        return pick(this.fee('delegate'));
      default:
        throw new Error(`no fee for action ${kind}`);
    }
  }

  /** Gas burnt when a transaction with `actions` becomes a receipt (`sir`: signer is receiver). */
  sendGas(actions: Json[], sir: boolean, receiverId: string): bigint {
    const pick = (f: { sendSir: bigint; sendNotSir: bigint }) => (sir ? f.sendSir : f.sendNotSir);
    return pick(this.fee('new_action_receipt')) + this.actionsSend(actions, sir, receiverId);
  }

  /** Send fees of actions (a Delegate also pays its inner actions' send fees, with the outer `sir`). */
  actionsSend(actions: Json[], sir: boolean, receiverId: string): bigint {
    const pick = (f: { sendSir: bigint; sendNotSir: bigint }) => (sir ? f.sendSir : f.sendNotSir);
    let gas = 0n;
    for (const action of actions) {
      gas += this.actionGas(action, receiverId, pick);
      if (typeof action === 'object' && 'Delegate' in action) {
        const inner = action.Delegate.delegate_action;
        gas += this.actionsSend(inner.actions, sir, inner.receiver_id);
      }
    }
    return gas;
  }

  /** Execution gas of one action. */
  actionExec(action: Json, receiverId: string): bigint {
    return this.actionGas(action, receiverId, (f) => f.execution);
  }

  /** Gas a receipt with `actions` burns when it executes the first `count` actions (default all). */
  execGas(actions: Json[], receiverId: string, count = actions.length): bigint {
    let gas = this.fee('new_action_receipt').execution;
    for (const action of actions.slice(0, count)) gas += this.actionExec(action, receiverId);
    return gas;
  }

  /** Gas bought with the transaction for its receipt (`gas_remaining` of nearcore's tx_cost). */
  prepaidGas(actions: Json[], receiverId: string): bigint {
    let gas = this.fee('new_action_receipt').execution;
    for (const action of actions) {
      if (typeof action === 'object' && 'Delegate' in action) {
        const inner = action.Delegate.delegate_action;
        gas += this.execGas(inner.actions, inner.receiver_id) + this.actionExec(action, receiverId);
        gas += this.actionsSend(inner.actions, inner.sender_id === inner.receiver_id, inner.receiver_id);
        gas += attachedGas(inner.actions);
      } else {
        gas += this.actionExec(action, receiverId);
      }
    }
    return gas + attachedGas(actions.filter((a) => !(typeof a === 'object' && 'Delegate' in a)));
  }

  /** `account_creation_charge` minus what the CreateAccount execution already burnt at `burnPrice`. */
  creationCharge(burnPrice: bigint): bigint {
    const burnt = this.fee('create_account').execution * burnPrice;
    return this.cfg.accountCreationCharge > burnt ? this.cfg.accountCreationCharge - burnt : 0n;
  }

  /** The price gas for receipts is bought at. */
  purchasePrice(gasPrice: bigint): bigint {
    return gasPrice > this.cfg.minGasPurchasePrice ? gasPrice : this.cfg.minGasPurchasePrice;
  }
}

export function attachedGas(actions: Json[]): bigint {
  let gas = 0n;
  for (const a of actions)
    if (typeof a === 'object' && 'FunctionCall' in a) gas += BigInt(a.FunctionCall.gas);
  return gas;
}

export function depositOf(actions: Json[]): bigint {
  let amount = 0n;
  for (const a of actions) {
    if (typeof a !== 'object') continue;
    if ('Transfer' in a) amount += BigInt(a.Transfer.deposit);
    if ('FunctionCall' in a) amount += BigInt(a.FunctionCall.deposit);
    if ('Delegate' in a) amount += depositOf(a.Delegate.delegate_action.actions);
  }
  return amount;
}

// ---- receipt ids ---------------------------------------------------------------------------------------

const u64le = (n: bigint | number) => {
  const b = Buffer.alloc(8);
  b.writeBigUInt64LE(BigInt(n));
  return b;
};

/** sha256(base ‖ u64_le(height) ‖ u64_le(salt)), as base58 via the caller's encoder. */
export function receiptIdBytes(base: Uint8Array, height: number, salt: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(base).update(u64le(height)).update(u64le(salt)).digest());
}

// ---- chain-wide checks ---------------------------------------------------------------------------------

export interface OutcomeInfo {
  id: string;
  blockHash: string;
  height: number;
  gasBurnt: bigint;
  tokensBurnt: bigint;
  /** Set for receipt outcomes. */
  receipt?: Json;
  isTx: boolean;
  failed: boolean;
}

/** Every outcome of `txs` (FINAL), with the receipt views from EXPERIMENTAL_tx_status. */
export async function collectOutcomes(url: string, txs: TxRef[]): Promise<OutcomeInfo[]> {
  const heights = new Map<string, number>();
  const heightOf = async (hash: string) => {
    let h = heights.get(hash);
    if (h === undefined) {
      h = await blockHeight(url, hash);
      heights.set(hash, h);
    }
    return h;
  };
  const out: OutcomeInfo[] = [];
  for (const tx of txs) {
    const status = await txStatus(url, tx, 'FINAL');
    const t = status.transaction_outcome;
    out.push({
      id: t.id,
      blockHash: t.block_hash,
      height: await heightOf(t.block_hash),
      gasBurnt: BigInt(t.outcome.gas_burnt),
      tokensBurnt: BigInt(t.outcome.tokens_burnt),
      isTx: true,
      failed: false,
    });
    for (const o of status.receipts_outcome) {
      let receipt = receiptView(status, o.id);
      if (!receipt) {
        const { result } = await rpcRaw(url, 'EXPERIMENTAL_receipt', { receipt_id: o.id });
        receipt = result;
      }
      out.push({
        id: o.id,
        blockHash: o.block_hash,
        height: await heightOf(o.block_hash),
        gasBurnt: BigInt(o.outcome.gas_burnt),
        tokensBurnt: BigInt(o.outcome.tokens_burnt),
        receipt,
        isTx: false,
        failed: typeof o.outcome.status === 'object' && 'Failure' in o.outcome.status,
      });
    }
  }
  return out;
}

/**
 * The function-call reward a receipt paid its receiver, read from the state changes of its block: the
 * `action_receipt_gas_reward` change of the receiver's account minus the account's amount just before it.
 */
export async function contractReward(url: string, o: OutcomeInfo): Promise<bigint> {
  if (o.isTx || o.receipt?.predecessor_id === 'system') return 0n;
  const actions: Json[] = o.receipt?.receipt?.Action?.actions ?? [];
  if (!actions.some((a) => typeof a === 'object' && 'FunctionCall' in a)) return 0n;
  const accountId: string = o.receipt.receiver_id;
  const { changes } = await rpc(url, 'EXPERIMENTAL_changes', {
    changes_type: 'account_changes',
    account_ids: [accountId],
    block_id: o.blockHash,
  });
  const index = changes.findIndex(
    (c: Json) => c.cause.type === 'action_receipt_gas_reward' && c.cause.receipt_hash === o.id,
  );
  if (index < 0) return 0n;
  const before =
    index > 0
      ? BigInt(changes[index - 1].change.amount)
      : (await viewAccount(url, accountId, { block_id: o.height - 1 }))!.amount;
  return BigInt(changes[index].change.amount) - before;
}

/** What a failed refund burns: its deposit (it is in no outcome's tokens_burnt). */
function otherBurnt(o: OutcomeInfo): bigint {
  if (!o.failed || o.receipt?.predecessor_id !== 'system') return 0n;
  return depositOf(o.receipt.receipt.Action.actions);
}

/**
 * Checks, for a chain on which `txs` are the only transactions and `accounts` every account that ever held
 * a balance:
 * - each block's `total_supply` is the previous one's minus the `balance_burnt` of its chunk headers;
 * - the chunk headers of block h+1 carry exactly the tokens burnt and gas burnt by the outcomes of block h
 *   (plus failed refunds);
 * - refund outcomes burn nothing; transaction outcomes burn gas × the block's price;
 * - Σ (amount + locked) of all accounts + everything burnt == the genesis total supply.
 */
export async function checkConservation(
  t: TestNode,
  accounts: string[],
  txs: TxRef[],
  options: { extraBurnt?: bigint } = {},
): Promise<{ head: number; burnt: bigint }> {
  const { url } = t;
  const outcomes = await collectOutcomes(url, txs);
  const head = (await block(url, { finality: 'final' })).header.height as number;
  const genesis = await block(url, { block_id: t.node.chain.genesisHeight });
  const genesisSupply = BigInt(genesis.header.total_supply);
  const genesisConfig = await rpc(url, 'EXPERIMENTAL_genesis_config', null);
  assert.equal(genesisSupply, BigInt(genesisConfig.total_supply), 'genesis header total_supply');

  const byHeight = new Map<number, { tokens: bigint; gas: bigint }>();
  let rewards = 0n;
  for (const o of outcomes) {
    assert.ok(o.height <= head, `outcome ${o.id} after the final head`);
    const entry = byHeight.get(o.height) ?? { tokens: 0n, gas: 0n };
    // The contract's share of a function call's gas is paid back out of what the receipt burnt.
    const reward = await contractReward(url, o);
    rewards += reward;
    entry.tokens += o.tokensBurnt + otherBurnt(o) - reward;
    entry.gas += o.gasBurnt;
    byHeight.set(o.height, entry);
    if (o.receipt?.predecessor_id === 'system') {
      assert.equal(o.gasBurnt, 0n, `refund ${o.id} burns no gas`);
      assert.equal(o.tokensBurnt, 0n, `refund ${o.id} burns no tokens`);
    }
  }

  let prev = genesis;
  let burntTotal = 0n;
  const gasPrices = new Map<number, bigint>();
  for (let h = genesis.header.height + 1; h <= head; h++) {
    const b = await block(url, { block_id: h });
    gasPrices.set(h, BigInt(prev.header.gas_price));
    const chunkBurnt = b.chunks.reduce((s: bigint, c: Json) => s + BigInt(c.balance_burnt), 0n);
    const chunkGas = b.chunks.reduce((s: bigint, c: Json) => s + BigInt(c.gas_used), 0n);
    assert.equal(
      BigInt(b.header.total_supply),
      BigInt(prev.header.total_supply) - chunkBurnt,
      `total_supply of block ${h}`,
    );
    const applied = byHeight.get(h - 1) ?? { tokens: 0n, gas: 0n };
    assert.equal(chunkBurnt, applied.tokens, `balance_burnt in the chunks of block ${h}`);
    assert.equal(chunkGas, applied.gas, `gas_used in the chunks of block ${h}`);
    burntTotal += chunkBurnt;
    prev = b;
  }
  // What block `head` itself burnt shows up in the next block's headers.
  const lastBurnt = byHeight.get(head)?.tokens ?? 0n;

  for (const o of outcomes) {
    const price = gasPrices.get(o.height)!;
    if (o.isTx) {
      assert.equal(o.tokensBurnt, o.gasBurnt * price, `tx outcome ${o.id}: tokens = gas × price`);
      continue;
    }
    if (o.receipt.predecessor_id === 'system') continue;
    // Receipts burn at min(purchase price, block price), plus the creation charge when they create their
    // receiver (CreateAccount, or a transfer to a missing implicit account).
    const purchase = BigInt(o.receipt.receipt.Action.gas_price);
    const burnPrice = purchase < price ? purchase : price;
    const extra = o.tokensBurnt - o.gasBurnt * burnPrice;
    if (extra !== 0n) {
      assert.equal(
        extra,
        t.fees.creationCharge(burnPrice),
        `receipt ${o.id}: only the creation charge on top`,
      );
      assert.ok(!o.failed, `failed receipt ${o.id} creates nothing`);
      const acts: Json[] = o.receipt.receipt.Action.actions;
      const receiver: string = o.receipt.receiver_id;
      assert.ok(
        acts.includes('CreateAccount') || /^([0-9a-f]{64}|0x[0-9a-f]{40})$/.test(receiver),
        `receipt ${o.id} paid a creation charge without creating an account`,
      );
    }
  }

  let total = 0n;
  for (const id of accounts) {
    const a = await viewAccount(url, id, { block_id: head });
    if (a) total += a.amount + a.locked;
  }
  const outcomeBurnt = outcomes.reduce((s, o) => s + o.tokensBurnt + otherBurnt(o), 0n) - rewards;
  const extra = options.extraBurnt ?? 0n;
  assert.equal(total + burntTotal + lastBurnt, genesisSupply, 'Σ balances + Σ burnt == genesis supply');
  assert.equal(outcomeBurnt + extra, burntTotal + lastBurnt, 'Σ outcome burnt == Σ chunk balance_burnt');
  assert.equal(BigInt(prev.header.total_supply) - lastBurnt, total, 'Σ balances == head total_supply');
  return { head, burnt: burntTotal + lastBurnt };
}

/** Resolves when `p` settles within `ms`, else reports it pending. */
export async function settledSoon<T>(
  p: Promise<T>,
  ms = 50,
): Promise<{ done: true; value: T } | { done: false }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), ms);
  });
  try {
    return await Promise.race([p.then((value) => ({ done: true as const, value })), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

// ---- single-receipt transactions -----------------------------------------------------------------------

export interface SingleReceiptOptions {
  /** The receipt creates its receiver (CreateAccount, or a transfer creating an implicit account). */
  creates?: boolean;
  /** Index of the action expected to fail; null when the receipt fails after its actions (storage). */
  failsAt?: number | null;
}

export interface SingleReceiptCosts {
  /** Height of the block that included the transaction, and of the one that executed its receipt. */
  txHeight: number;
  receiptHeight: number;
  gasPrice: bigint;
  purchasePrice: bigint;
  /** Bought at conversion: send fees at the gas price, prepaid gas at the purchase price, deposits. */
  totalCost: bigint;
  /** Tokens burnt by the transaction and by its receipt (account creation charge included). */
  txBurnt: bigint;
  receiptBurnt: bigint;
  gasRefund: bigint;
  /** Deposits given back to the predecessor when the receipt failed. */
  depositRefund: bigint;
  /** What the signer loses in the end, deposits aside: txBurnt + receiptBurnt. */
  fee: bigint;
  status: Json;
}

/**
 * Checks a transaction that makes one action receipt and whose receipt makes nothing but refunds, against
 * the fee schedule: the outcomes' gas and tokens, the receipt ids, the refund receipts and their amounts.
 */
export async function checkSingleReceiptTx(
  t: TestNode,
  status: Json,
  options: SingleReceiptOptions = {},
): Promise<SingleReceiptCosts> {
  const { fees, url } = t;
  const tx = status.transaction;
  const actions: Json[] = tx.actions;
  const sir = tx.signer_id === tx.receiver_id;
  const txOutcome = status.transaction_outcome;
  const txHeight = await blockHeight(url, txOutcome.block_hash);
  const gasPrice = await applyGasPrice(url, txHeight);
  const purchasePrice = fees.purchasePrice(gasPrice);

  const sendGas = fees.sendGas(actions, sir, tx.receiver_id);
  const prepaid = fees.prepaidGas(actions, tx.receiver_id);
  const deposits = depositOf(actions);
  assert.equal(BigInt(txOutcome.outcome.gas_burnt), sendGas, 'tx outcome gas_burnt = send fees');
  assert.equal(BigInt(txOutcome.outcome.tokens_burnt), sendGas * gasPrice, 'tx outcome tokens_burnt');
  assert.equal(txOutcome.outcome.executor_id, tx.signer_id);
  const r1 = baseEncode(receiptIdBytes(baseDecode(tx.hash), txHeight, 0));
  assert.deepEqual(txOutcome.outcome.receipt_ids, [r1], 'receipt id = sha256(tx hash ‖ height ‖ 0)');
  assert.deepEqual(txOutcome.outcome.status, { SuccessReceiptId: r1 });

  const receipt = receiptOutcome(status, r1);
  const receiptHeight = await blockHeight(url, receipt.block_hash);
  assert.equal(receiptHeight, sir ? txHeight : txHeight + 1, 'local receipts run at once, others next block');
  const receiptPrice = await applyGasPrice(url, receiptHeight);
  const burnPrice = purchasePrice < receiptPrice ? purchasePrice : receiptPrice;
  const failed = options.failsAt !== undefined;
  const executedActions = typeof options.failsAt === 'number' ? options.failsAt + 1 : actions.length;
  const burntGas = fees.execGas(actions, tx.receiver_id, executedActions);
  const charge = options.creates && !failed ? fees.creationCharge(burnPrice) : 0n;
  assert.equal(receipt.outcome.executor_id, tx.receiver_id);
  assert.equal(BigInt(receipt.outcome.gas_burnt), burntGas, 'receipt gas_burnt = execution fees');
  assert.equal(
    BigInt(receipt.outcome.tokens_burnt),
    burntGas * burnPrice + charge,
    'receipt tokens_burnt = gas × min(purchase, block price) + creation charge',
  );
  if (failed) {
    assert.equal(receipt.outcome.status.Failure?.ActionError?.index, options.failsAt, 'failing action');
  } else {
    assert.deepEqual(receipt.outcome.status, { SuccessValue: '' });
  }

  const gasRefund = purchasePrice * prepaid - burnPrice * burntGas - charge;
  const depositRefund = failed ? deposits : 0n;
  const expectedIds: string[] = [];
  const refunds: Array<{ receiver: string; signer: string; amount: bigint }> = [];
  if (depositRefund > 0n) refunds.push({ receiver: tx.signer_id, signer: 'system', amount: depositRefund });
  if (gasRefund > 0n) refunds.push({ receiver: tx.signer_id, signer: tx.signer_id, amount: gasRefund });
  refunds.forEach((_, i) => {
    expectedIds.push(baseEncode(receiptIdBytes(baseDecode(r1), receiptHeight, i)));
  });
  assert.deepEqual(receipt.outcome.receipt_ids, expectedIds, 'refund receipt ids');
  refunds.forEach((refund, i) => {
    const view = receiptView(status, expectedIds[i]);
    assert.ok(view, 'refund receipt in EXPERIMENTAL_tx_status receipts');
    assert.equal(view.predecessor_id, 'system');
    assert.equal(view.receiver_id, refund.receiver);
    assert.equal(view.receipt.Action.signer_id, refund.signer);
    assert.equal(view.receipt.Action.gas_price, '0');
    if (refund.signer !== 'system') assert.equal(view.receipt.Action.signer_public_key, tx.public_key);
    assert.deepEqual(view.receipt.Action.actions, [{ Transfer: { deposit: refund.amount.toString() } }]);
  });

  const txBurnt = sendGas * gasPrice;
  const receiptBurnt = burntGas * burnPrice + charge;
  return {
    txHeight,
    receiptHeight,
    gasPrice,
    purchasePrice,
    totalCost: txBurnt + prepaid * purchasePrice + deposits,
    txBurnt,
    receiptBurnt,
    gasRefund,
    depositRefund,
    fee: txBurnt + receiptBurnt,
    status,
  };
}
