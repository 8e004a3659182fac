/**
 * Which EVM transaction carries a chain signature: the signer's ECDSA answer (`big_r` a compressed point,
 * `s`, `recovery_id`) gives r = x(big_r) mod n, s and the parity of R's y; a transaction carries it when its
 * r and s are those and its yParity (typed) or v (legacy: 27/28, or EIP-155's chainId·2 + 35/36) is that
 * parity. The same signature with s replaced by n − s (and the parity flipped) is the same signature, so it
 * matches too (the signer already answers with the low s, which EVM chains require).
 */

const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;

export interface EcdsaSignature {
  r: bigint;
  s: bigint;
  /** 0 or 1: the parity of R's y. */
  parity: number;
}

/** The signer's answer as r, s, parity; undefined for an EdDSA answer or anything else. */
export function ecdsaOfResponse(response: unknown): EcdsaSignature | undefined {
  const r = response as {
    big_r?: { affine_point?: string } | string;
    s?: { scalar?: string } | string;
    recovery_id?: number;
  };
  const bigR = typeof r?.big_r === 'string' ? r.big_r : r?.big_r?.affine_point;
  const s = typeof r?.s === 'string' ? r.s : r?.s?.scalar;
  if (typeof bigR !== 'string' || typeof s !== 'string' || !/^0[23][0-9a-fA-F]{64}$/.test(bigR)) return;
  if (!/^[0-9a-fA-F]{1,64}$/.test(s)) return;
  return {
    r: BigInt(`0x${bigR.slice(2)}`) % N,
    s: BigInt(`0x${s}`),
    parity: Number(r.recovery_id ?? Number.parseInt(bigR.slice(0, 2), 16) - 2) & 1,
  };
}

/** The y parity an EVM transaction's signature fields say. */
export function parityOfTx(tx: { v: string; yParity?: string }): number {
  if (tx.yParity !== undefined) return Number(BigInt(tx.yParity)) & 1;
  const v = BigInt(tx.v);
  return v >= 35n ? Number((v - 35n) % 2n) : Number(v - 27n) & 1;
}

export function carriesSignature(
  tx: { r: string; s: string; v: string; yParity?: string },
  sig: EcdsaSignature,
) {
  if (BigInt(tx.r) !== sig.r) return false;
  const s = BigInt(tx.s);
  const parity = parityOfTx(tx);
  return (s === sig.s && parity === sig.parity) || (s === N - sig.s && parity === (sig.parity ^ 1));
}
