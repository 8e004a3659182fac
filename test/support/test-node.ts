/**
 * A node started in this process for an end-to-end test (in memory, RPC on a free port, silent), with the
 * genesis account `test.near` both as a near-api-js `Account` and as a key for transactions built by hand,
 * and the fee schedule it runs with.
 */
import {
  loadRuntimeConfig,
  type RunningNode,
  type StartNodeOptions,
  silentLogger,
  startNode,
} from '@shadebox/node';
import { KeyPair as PrimitivesKeyPair } from '@shadebox/primitives';
import { Account, JsonRpcProvider, KeyPair, KeyPairSigner, type KeyPairString } from 'near-api-js';
import { Fees, type RuntimeConfig } from './fees.js';
import type { Signer } from './transactions.js';

export interface TestNode {
  node: RunningNode;
  url: string;
  provider: JsonRpcProvider;
  /** `test.near`, the genesis account, with its full-access key. */
  root: Account;
  rootId: string;
  /** `test.near` and the same key as a @shadebox/primitives key pair, to sign transactions built by hand. */
  rootSigner: Signer;
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
    rootSigner: { accountId: validator.accountId, key: PrimitivesKeyPair.fromString(validator.secretKey) },
    cfg,
    fees: new Fees(cfg),
    account,
    stop: () => node.stop(),
  };
}

/** A new ed25519 key pair (near-api-js). */
export function newKey(): KeyPair {
  return KeyPair.fromRandom('ed25519');
}
