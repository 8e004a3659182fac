/**
 * The price the agent publishes: ETH/USD in cents, as the Shade Agent template stores it. The template averages
 * two exchanges' tickers; this example stays off the network and takes ORACLE_PRICE, else a fixed quote.
 * Replace `currentPrice` with a real feed to publish real prices.
 */
const FIXED_PRICE_CENTS = 312_345n; // $3,123.45

export function currentPrice(env: NodeJS.ProcessEnv = process.env): bigint {
  const given = env.ORACLE_PRICE?.trim();
  if (!given) return FIXED_PRICE_CENTS;
  if (!/^\d+$/.test(given)) throw new Error(`ORACLE_PRICE must be a whole number of cents, not ${given}`);
  return BigInt(given);
}
