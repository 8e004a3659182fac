/**
 * `query` `call_function`: runs a contract method read-only on the state as of a block (nearcore
 * `TrieViewer::call_function`). The contract is its own signer and predecessor with an empty ED25519 key,
 * attaches nothing, pays no gas price, may burn up to `max_gas_burnt` (the view limit), and draws its random
 * seed from the state root. Writes and promises fail with `ProhibitedInView`. A failed call is still an RPC
 * success: `result.error` carries "wasm execution failed with error: " and the VM error's debug form.
 */
import { base58Decode, sha256 } from '@shadebox/primitives';
import type { Chain } from '../../chain/chain.js';
import type { BlockRecord } from '../../chain/records.js';
import { contractExternal } from '../../runtime/contract-external.js';
import { decodeAccount } from '../../state/account.js';
import { contractCodeKey } from '../../state/state-keys.js';
import { runContract } from '../../vm/run-contract.js';

const EMPTY_ED25519 = { keyType: 0 as const, data: new Uint8Array(32) };

/** The last state root decoded: views at one head all use it. */
let lastRoot: { text: string; bytes: Uint8Array } = { text: '', bytes: new Uint8Array(32) };
function decodeStateRoot(text: string): Uint8Array {
  if (lastRoot.text !== text) lastRoot = { text, bytes: base58Decode(text) };
  return lastRoot.bytes;
}

export function viewCall(
  chain: Chain,
  block: BlockRecord,
  accountId: string,
  accountBytes: Uint8Array,
  method: string,
  args: Uint8Array,
): { result: number[]; logs: string[] } | { error: string; logs: string[] } {
  const account = decodeAccount(accountBytes);
  const state = chain.stateAt(block.height);
  const params = chain.params;
  const shard = chain.shardOf(accountId);
  const stateRoot = block.chunkExtras[shard]?.stateRoot;
  const out = runContract({
    codeHash: account.codeHash,
    code: () => state.get(contractCodeKey(accountId)),
    method,
    context: {
      currentAccountId: accountId,
      signerAccountId: accountId,
      signerAccountPk: EMPTY_ED25519,
      predecessorAccountId: accountId,
      input: args,
      promiseResults: [],
      blockHeight: BigInt(block.height),
      blockTimestamp: BigInt(block.timestampNs),
      epochHeight: BigInt(chain.epochOf(block.height).epochHeight),
      accountBalance: account.amount,
      accountLockedBalance: account.locked,
      storageUsage: account.storageUsage,
      attachedDeposit: 0n,
      prepaidGas: params.vm.config.maxGasBurnt,
      randomSeed: stateRoot ? decodeStateRoot(stateRoot) : sha256(new Uint8Array(0)),
      isView: true,
      outputDataReceiverCount: 0,
      chainId: params.chainId,
    },
    config: params.vm.config,
    ext: contractExternal(state, accountId, chain.validatorStakes(), { readOnly: true }),
    actionHash: new Uint8Array(32),
    cache: params.vm.cache,
  });
  if (out.error) return { error: `wasm execution failed with error: ${out.error.debug()}`, logs: [] };
  const value = out.returnData.kind === 'Value' ? out.returnData.value : new Uint8Array(0);
  return { result: Array.from(value), logs: out.logs };
}
