/** Amounts and gas as the live transaction log prints them: NEAR with a few significant digits, Tgas. */
import { formatNearAmount } from '@shadebox/primitives';

/** yoctoNEAR → `1.5 NEAR`, `0.000223 NEAR` (at most 6 significant fraction digits), `1 yoctoNEAR`. */
export function formatNear(yocto: bigint): string {
  if (yocto === 0n) return '0 NEAR';
  if (yocto > 0n && yocto < 1_000_000n) return `${yocto} yoctoNEAR`;
  const full = formatNearAmount(yocto);
  const dot = full.indexOf('.');
  if (dot < 0) return `${full} NEAR`;
  const fraction = full.slice(dot + 1);
  const firstDigit = fraction.search(/[1-9]/);
  const keep = Math.max(firstDigit + 6, 6);
  const cut = fraction.length > keep ? fraction.slice(0, keep).replace(/0+$/, '') : fraction;
  return `${full.slice(0, dot)}${cut ? `.${cut}` : ''} NEAR`;
}

/** Gas → `2.43 Tgas`. */
export function formatGas(gas: bigint): string {
  return `${(Number(gas) / 1e12).toFixed(2)} Tgas`;
}
