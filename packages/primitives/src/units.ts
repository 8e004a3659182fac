/** Units: 1 NEAR = 10^24 yoctoNEAR; 1 Tgas = 10^12 gas. */
import { InvalidAmountError } from './errors.js';

export const NEAR_NOMINATION_EXP = 24;
export const ONE_NEAR = 10n ** 24n;
export const ONE_YOCTO = 1n;
export const TGAS = 10n ** 12n;

const AMOUNT_RE = /^(\d+)(?:\.(\d*))?$/;

/** `'1.5'` → 1.5 NEAR in yoctoNEAR. Digits, an optional point and at most 24 decimals; no sign, no exponent. */
export function parseNearAmount(amount: string): bigint {
  if (typeof amount !== 'string') throw new InvalidAmountError(String(amount), 'not a string');
  const match = AMOUNT_RE.exec(amount.trim());
  if (!match) throw new InvalidAmountError(amount, 'expected a decimal number of NEAR, e.g. "1.5"');
  const fraction = match[2] ?? '';
  if (fraction.length > NEAR_NOMINATION_EXP) {
    throw new InvalidAmountError(amount, `more than ${NEAR_NOMINATION_EXP} decimal places`);
  }
  return BigInt(match[1]) * ONE_NEAR + BigInt(fraction.padEnd(NEAR_NOMINATION_EXP, '0') || '0');
}

/**
 * yoctoNEAR → NEAR as a decimal string, rounded half up to `fractionDigits` decimals, without trailing zeros:
 * 1_500_000_000_000_000_000_000_000n → '1.5'.
 */
export function formatNearAmount(yocto: bigint, fractionDigits = NEAR_NOMINATION_EXP): string {
  if (typeof yocto !== 'bigint') throw new InvalidAmountError(String(yocto), 'not a bigint');
  if (!Number.isInteger(fractionDigits) || fractionDigits < 0 || fractionDigits > NEAR_NOMINATION_EXP) {
    throw new RangeError(`fractionDigits must be 0..${NEAR_NOMINATION_EXP}`);
  }
  const negative = yocto < 0n;
  let value = negative ? -yocto : yocto;
  const drop = 10n ** BigInt(NEAR_NOMINATION_EXP - fractionDigits);
  if (drop > 1n) value = ((value + drop / 2n) / drop) * drop;
  const whole = value / ONE_NEAR;
  const fraction = (value % ONE_NEAR).toString().padStart(NEAR_NOMINATION_EXP, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
