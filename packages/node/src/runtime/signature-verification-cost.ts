/**
 * The extra gas burnt converting a transaction for the signatures it makes the protocol verify
 * (runtime/runtime/src/config.rs `signature_verification_cost`, `PostQuantumSignatures`): the signer's own
 * signature and the inner signature of each Delegate and DelegateV2 action, each priced by its scheme. Only ML-DSA-65 costs
 * anything (`ml_dsa_65_verification_cost`, 100 Ggas at protocol 85); ed25519 and secp256k1 cost nothing extra.
 * The gas is burnt at conversion and paid by the signer: the gas the receipt gets is unchanged.
 */
import { type Action, KEY_TYPE_ML_DSA_65, type PublicKey } from '@shadebox/primitives';
import type { TransactionCost } from '../config/fees.js';

function costOf(publicKey: PublicKey, mlDsa65VerificationCost: bigint): bigint {
  return publicKey.keyType === KEY_TYPE_ML_DSA_65 ? mlDsa65VerificationCost : 0n;
}

export function signatureVerificationGas(
  mlDsa65VerificationCost: bigint,
  signerPublicKey: PublicKey,
  actions: Action[],
): bigint {
  let gas = costOf(signerPublicKey, mlDsa65VerificationCost);
  for (const action of actions) {
    if (action.type === 'Delegate' || action.type === 'DelegateV2')
      gas += costOf(action.signedDelegateAction.delegateAction.publicKey, mlDsa65VerificationCost);
  }
  return gas;
}

/** `cost` with the verification gas added to the gas burnt at conversion (and to what the signer pays). */
export function withSignatureVerificationCost(
  cost: TransactionCost,
  mlDsa65VerificationCost: bigint,
  tx: { publicKey: PublicKey; actions: Action[] },
  gasPrice: bigint,
): TransactionCost {
  const gas = signatureVerificationGas(mlDsa65VerificationCost, tx.publicKey, tx.actions);
  if (gas === 0n) return cost;
  return {
    ...cost,
    gasBurnt: cost.gasBurnt + gas,
    burntAmount: cost.burntAmount + gas * gasPrice,
    totalCost: cost.totalCost + gas * gasPrice,
  };
}
