/** Amounts, gas and times as people read them. */

const YOCTO = 10n ** 24n;

/** yoctoNEAR (a decimal string) → "12.345 NEAR", with up to 5 decimals and no trailing zeros. */
export function near(yocto: string | bigint): string {
  const v = BigInt(yocto);
  const whole = v / YOCTO;
  const frac = (v % YOCTO).toString().padStart(24, '0').slice(0, 5).replace(/0+$/, '');
  if (v > 0n && whole === 0n && frac === '') return '< 0.00001 NEAR';
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''} NEAR`;
}

/** gas → "2.43 Tgas". */
export function gas(value: number | string | bigint): string {
  const tera = Number(BigInt(value)) / 1e12;
  return `${tera < 0.01 && tera > 0 ? tera.toPrecision(2) : tera.toFixed(2)} Tgas`;
}

/** Nanoseconds since the epoch → "14:03:22 (5 s ago)". */
export function time(ns: string | number): string {
  const ms = Number(BigInt(ns) / 1_000_000n);
  const date = new Date(ms);
  const ago = Math.round((Date.now() - ms) / 1000);
  const rel = ago < 0 ? '' : ago < 90 ? `${ago} s ago` : ago < 5400 ? `${Math.round(ago / 60)} min ago` : '';
  return `${date.toISOString().replace('T', ' ').slice(0, 19)} UTC${rel ? ` (${rel})` : ''}`;
}

export function bytes(n: number): string {
  return n < 1024
    ? `${n} B`
    : n < 1024 * 1024
      ? `${(n / 1024).toFixed(1)} KiB`
      : `${(n / 1048576).toFixed(2)} MiB`;
}

const WEI_PER_ETH = 10n ** 18n;

/** wei → "1.5 ETH" (up to 6 decimals), or "1,000 wei" below a millionth of an ether. */
export function ether(wei: bigint): string {
  if (wei !== 0n && wei < 10n ** 12n) return `${wei.toLocaleString('en-US')} wei`;
  const whole = wei / WEI_PER_ETH;
  const frac = (wei % WEI_PER_ETH).toString().padStart(18, '0').slice(0, 6).replace(/0+$/, '');
  return `${whole.toLocaleString('en-US')}${frac ? `.${frac}` : ''} ETH`;
}
