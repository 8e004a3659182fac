/**
 * A transaction the node refused (nearcore's `InvalidTxError`) as a sentence that says what to do. The agent
 * signs every transaction itself, so most refusals mean its account lacks funds or its keys are out of step.
 */
import type { InvalidTxErrorJson } from '@shadebox/near-client';

const SENTENCES: Record<string, string> = {
  NotEnoughBalance:
    'the agent account cannot pay for this call (it prepays the gas at the highest gas price): send less gas, or fund the agent with more (AGENT_FUNDING_AMOUNT)',
  LackBalanceForState:
    'the agent account would fall below the balance its storage needs: fund the agent with more (AGENT_FUNDING_AMOUNT)',
  InvalidNonce: 'the agent key’s nonce was used already: send the call again',
  Expired: 'the transaction expired before it reached the chain: send the call again',
  InvalidAccessKeyError: 'the agent key is not valid for this call: restart the agent so it registers again',
  SignerDoesNotExist:
    'the agent account does not exist on this chain: restart the agent so it is funded again',
  CostOverflow: 'the call costs more than can be paid: send less gas',
  ShardCongested: 'the chain is congested: send the call again later',
  ShardStuck: 'the chain is not making progress: send the call again later',
};

/** The sentence for nearcore's `InvalidTxError` JSON (`undefined` when only the cause name is known). */
export function describeInvalidTransaction(invalidTx: InvalidTxErrorJson | undefined): string {
  const variant =
    typeof invalidTx === 'string' ? invalidTx : invalidTx ? (Object.keys(invalidTx)[0] ?? '') : '';
  const fields = typeof invalidTx === 'object' ? (invalidTx[variant] as Record<string, unknown>) : undefined;
  if (variant === 'NotEnoughBalance' && fields?.balance !== undefined && fields?.cost !== undefined) {
    return `the agent account cannot pay for this call: it costs up to ${fields.cost} yoctoNEAR (the gas is prepaid at the highest gas price) and the account holds ${fields.balance}; send less gas, or fund the agent with more (AGENT_FUNDING_AMOUNT)`;
  }
  return (
    SENTENCES[variant] ??
    `the node refused the transaction${variant ? ` (${variant})` : ''}: see details for nearcore's reason`
  );
}
