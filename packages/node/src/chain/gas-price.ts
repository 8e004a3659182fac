/**
 * The gas price of the next block (core/primitives/src/block.rs `compute_next_gas_price`): it moves by
 * `gas_price_adjustment_rate` towards fuller or emptier chunks and stays within [min, max]:
 * next = price · (2·d·L + 2·n·U − n·L) / (2·d·L), with U the gas used and L the gas limit of the chunks.
 */
import type { GenesisConfig } from '../config/genesis.js';

export function nextGasPrice(
  genesis: GenesisConfig,
  price: bigint,
  gasUsed: bigint,
  gasLimit: bigint,
): bigint {
  const min = BigInt(genesis.min_gas_price);
  const max = BigInt(genesis.max_gas_price);
  let next = price;
  if (gasLimit > 0n) {
    const [n, d] = genesis.gas_price_adjustment_rate.map(BigInt);
    next = (price * (2n * d * gasLimit + 2n * n * gasUsed - n * gasLimit)) / (2n * d * gasLimit);
  }
  return next < min ? min : next > max ? max : next;
}
