/** Amounts and gas as people read them: NEAR (exact, trailing zeros dropped) and Tgas. */
import { formatNearAmount } from '@shadebox/primitives';

/** yoctoNEAR (bigint or the RPC's decimal string) → `1.5 NEAR`, exact to the yocto. */
export function formatNear(yocto: bigint | string | number): string {
  return `${formatNearAmount(BigInt(yocto))} NEAR`;
}

/** gas (number or decimal string) → `2.428 Tgas` (three decimals, trailing zeros dropped). */
export function formatTgas(gas: bigint | string | number): string {
  const milli = (BigInt(gas) + 500_000_000n) / 1_000_000_000n;
  const whole = milli / 1000n;
  const fraction = (milli % 1000n).toString().padStart(3, '0').replace(/0+$/, '');
  return `${whole}${fraction ? `.${fraction}` : ''} Tgas`;
}

/** A block timestamp in nanoseconds (decimal string) → ISO 8601 UTC. */
export function formatTimestamp(nanos: string | number | bigint): string {
  return new Date(Number(BigInt(nanos) / 1_000_000n)).toISOString();
}
