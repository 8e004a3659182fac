/**
 * What the owner of a 2.0 agent contract approves before an agent can register, done by `shadebox up`:
 * - local mode (`--agent-contract v2`, or a released template build: the `whitelist-local` flow), as
 *   `shade deploy` does: the all-zero mock measurements and the default PPID. Skipped when the contract's owner
 *   is not the account the stack holds the key of (the owner of a user's init arguments approves them itself);
 * - `--tee dstack --agent-contract v2` (`requires_tee: true`), as a 2.0 developer approves their TD's with
 *   `shade`: what the local dstack's simulated TD shows (MRTD, RTMR0-2, key-provider event digest, compose hash,
 *   PPID). The TD is simulated (docs/tee.md): these approvals are for development only.
 * Each is skipped when already approved; what is missing is approved in one transaction.
 */
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';
import type { StackDstackInfo } from '../dstack/stack-tee.js';

const Z48 = '0'.repeat(96);

/** shade-attestation's mock measurements, as `shade deploy` approves them in local mode. */
export const MOCK_MEASUREMENTS = {
  rtmrs: { mrtd: Z48, rtmr0: Z48, rtmr1: Z48, rtmr2: Z48 },
  key_provider_event_digest: Z48,
  app_compose_hash_payload: '0'.repeat(64),
} as const;

/** The default PPID (16 zero bytes), as `shade deploy` approves it in local mode. */
export const DEFAULT_PPID = '0'.repeat(32);

type Owner = { accountId: string; secretKey: string };

export async function approveLocalMode(
  rpcUrl: string,
  owner: Owner,
  agentContractId: string,
  log: Logger,
): Promise<void> {
  const rpc = new RpcClient([rpcUrl], 30_000);
  const info = (await viewFunction(rpc, agentContractId, 'get_contract_info', {})) as { owner_id: string };
  if (info.owner_id !== owner.accountId) {
    log.warn(
      { agentContractId, ownerId: info.owner_id },
      `the agent contract's owner ${info.owner_id} must approve the mock measurements and the default PPID for local mode`,
    );
    return;
  }
  if (await approve(rpc, owner, agentContractId, { measurements: MOCK_MEASUREMENTS, ppid: DEFAULT_PPID }))
    log.info({ agentContractId }, 'local mode: mock measurements and default PPID approved');
}

export async function approveTd(
  rpcUrl: string,
  owner: Owner,
  agentContractId: string,
  td: Pick<StackDstackInfo, 'measurements' | 'ppid'>,
  log: Logger,
): Promise<void> {
  if (await approve(new RpcClient([rpcUrl], 30_000), owner, agentContractId, td))
    log.info(
      { agentContractId, ppid: td.ppid },
      "requires_tee: the simulated TD's measurements and PPID approved",
    );
}

/** Approves `measurements` and `ppid` where the contract lacks them; resolves with whether it sent anything. */
async function approve(
  rpc: RpcClient,
  owner: Owner,
  agentContractId: string,
  wanted: { measurements: unknown; ppid: string },
): Promise<boolean> {
  const measurements = (await viewFunction(
    rpc,
    agentContractId,
    'get_approved_measurements',
    {},
  )) as unknown[];
  const ppids = (await viewFunction(rpc, agentContractId, 'get_approved_ppids', {})) as string[];
  const calls: Array<[string, unknown]> = [];
  if (!measurements.some((m) => JSON.stringify(m) === JSON.stringify(wanted.measurements)))
    calls.push(['approve_measurements', { measurements: wanted.measurements }]);
  if (!ppids.includes(wanted.ppid)) calls.push(['approve_ppids', { ppids: [wanted.ppid] }]);
  if (calls.length === 0) return false;
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
  return true;
}
