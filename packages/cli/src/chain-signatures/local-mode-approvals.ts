/**
 * What `shade deploy` does for a 2.0 agent contract in local mode, done by `shadebox up` for a contract of the
 * `whitelist-local` flow (`--agent-contract v2`, or a released template build): its owner approves the
 * all-zero mock measurements and the default PPID, without which no agent registers in local mode. Skipped
 * when already approved, or when the contract's owner is not the account the stack holds the key of (the
 * owner of a user's init arguments approves them itself).
 */

import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';

const Z48 = '0'.repeat(96);

/** shade-attestation's mock measurements, as `shade deploy` approves them in local mode. */
export const MOCK_MEASUREMENTS = {
  rtmrs: { mrtd: Z48, rtmr0: Z48, rtmr1: Z48, rtmr2: Z48 },
  key_provider_event_digest: Z48,
  app_compose_hash_payload: '0'.repeat(64),
} as const;

/** The default PPID (16 zero bytes), as `shade deploy` approves it in local mode. */
export const DEFAULT_PPID = '0'.repeat(32);

export async function approveLocalMode(
  rpcUrl: string,
  owner: { accountId: string; secretKey: string },
  agentContractId: string,
  log: Logger,
): Promise<void> {
  const rpc = new RpcClient([rpcUrl], 30_000);
  const info = (await viewFunction(rpc, agentContractId, 'get_contract_info', {})) as {
    owner_id: string;
    requires_tee: boolean;
  };
  if (info.owner_id !== owner.accountId) {
    log.warn(
      { agentContractId, ownerId: info.owner_id },
      `the agent contract's owner ${info.owner_id} must approve the mock measurements and the default PPID for local mode`,
    );
    return;
  }
  const measurements = (await viewFunction(
    rpc,
    agentContractId,
    'get_approved_measurements',
    {},
  )) as unknown[];
  const ppids = (await viewFunction(rpc, agentContractId, 'get_approved_ppids', {})) as string[];
  const calls: Array<[string, unknown]> = [];
  if (!measurements.some((m) => JSON.stringify(m) === JSON.stringify(MOCK_MEASUREMENTS))) {
    calls.push(['approve_measurements', { measurements: MOCK_MEASUREMENTS }]);
  }
  if (!ppids.includes(DEFAULT_PPID)) calls.push(['approve_ppids', { ppids: [DEFAULT_PPID] }]);
  if (calls.length === 0) return;
  const pool = new KeyPool(rpc, owner.accountId, [KeyPair.fromString(owner.secretKey)]);
  outcomeResult(
    await pool.send(
      agentContractId,
      calls.map(([methodName, args]) => ({
        type: 'FunctionCall' as const,
        methodName,
        args: new TextEncoder().encode(JSON.stringify(args)),
        gas: 30n * TGAS,
        deposit: 0n,
      })),
    ),
  );
  log.info({ agentContractId }, 'local mode: mock measurements and default PPID approved');
}
