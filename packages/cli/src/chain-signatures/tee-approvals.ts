/**
 * `shadebox up --tee dstack --agent-contract v2`: the built-in 2.0 contract is made with `requires_tee: true`,
 * and its owner approves what the local dstack's simulated TD shows (its MRTD, RTMR0-2, key-provider event
 * digest and compose hash, and its PPID), as a 2.0 developer approves their TD's with `shade`. Skipped when
 * already approved. The TD is simulated (docs/tee.md): these approvals are for development only.
 */
import { KeyPool, outcomeResult, RpcClient, viewFunction } from '@shadebox/near-client';
import type { Logger } from '@shadebox/node';
import { KeyPair, TGAS } from '@shadebox/primitives';
import type { StackDstackInfo } from '../dstack/stack-tee.js';

export async function approveTd(
  rpcUrl: string,
  owner: { accountId: string; secretKey: string },
  agentContractId: string,
  td: Pick<StackDstackInfo, 'measurements' | 'ppid'>,
  log: Logger,
): Promise<void> {
  const rpc = new RpcClient([rpcUrl], 30_000);
  const measurements = (await viewFunction(
    rpc,
    agentContractId,
    'get_approved_measurements',
    {},
  )) as unknown[];
  const ppids = (await viewFunction(rpc, agentContractId, 'get_approved_ppids', {})) as string[];
  const calls: Array<[string, unknown]> = [];
  if (!measurements.some((m) => JSON.stringify(m) === JSON.stringify(td.measurements)))
    calls.push(['approve_measurements', { measurements: td.measurements }]);
  if (!ppids.includes(td.ppid)) calls.push(['approve_ppids', { ppids: [td.ppid] }]);
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
  log.info(
    { agentContractId, ppid: td.ppid },
    "requires_tee: the simulated TD's measurements and PPID approved",
  );
}
