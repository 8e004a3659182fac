/**
 * What executing the actions of one receipt produced.
 */
import type { Receipt } from '@shadebox/primitives';
import type { ReturnData } from '../vm/vm-context.js';

export interface ValidatorProposal {
  accountId: string;
  publicKey: Uint8Array;
  stake: bigint;
}

export interface ActionResult {
  /** Gas burnt by the receipt (fees of executed actions, receipt creation, sent receipts). */
  gasBurnt: bigint;
  /** Gas used: burnt plus gas handed on to new receipts. The refund is what was prepaid but not used. */
  gasUsed: bigint;
  /** Receipts created by the actions, without ids yet (ids are derived by position). */
  newReceipts: Receipt[];
  logs: string[];
  validatorProposals: ValidatorProposal[];
  /** Gas burnt inside contract code (30% of it rewards the contract account). */
  gasBurntForFunctionCall: bigint;
  /** yoctoNEAR minted by the one-yocto subsidy of promises. */
  subsidized: bigint;
  /** What the last function call returned; a receipt index points into `newReceipts`. */
  returnData: ReturnData;
  /** Balance burnt by the actions themselves (a global contract's storage), part of the outcome's
   * tokens_burnt. */
  tokensBurnt?: bigint;
}

export function emptyActionResult(): ActionResult {
  return {
    gasBurnt: 0n,
    gasUsed: 0n,
    newReceipts: [],
    logs: [],
    validatorProposals: [],
    gasBurntForFunctionCall: 0n,
    subsidized: 0n,
    returnData: { kind: 'None' },
  };
}
