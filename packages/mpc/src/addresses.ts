/**
 * Foreign-chain addresses of chain-signature keys (as chainsig.js derives them):
 * - EVM: `0x` + EIP-55 checksum of keccak256(x‖y)[12..32].
 * - Bitcoin P2WPKH: bech32 (witness v0) of hash160(compressed key); `bc` mainnet, `tb` testnet, `bcrt` regtest.
 * - Solana: base58 of the ed25519 key.
 * - NEAR implicit account: hex of the ed25519 key.
 * Keys are NAJ strings or raw bytes (secp256k1: 64 x‖y, 65 or 33 bytes; ed25519: 32 bytes).
 */
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58, bech32 } from '@scure/base';
import {
  bytesToHex,
  compressSecp256k1PublicKey,
  DerivationError,
  ed25519PublicKeyBytes,
  secp256k1PublicKeyBytes,
} from './derivation.js';

/** EIP-55 mixed-case checksum of a 20-byte address given as hex (with or without 0x). */
export function toChecksumAddress(address: string): string {
  const hex = address.toLowerCase().replace(/^0x/, '');
  if (!/^[0-9a-f]{40}$/.test(hex)) throw new DerivationError('an EVM address is 20 bytes of hex');
  const hash = bytesToHex(keccak_256(new TextEncoder().encode(hex)));
  let out = '0x';
  for (let i = 0; i < 40; i++) out += Number.parseInt(hash[i], 16) >= 8 ? hex[i].toUpperCase() : hex[i];
  return out;
}

/** The EVM address (EIP-55) of a secp256k1 public key. */
export function evmAddress(publicKey: Uint8Array | string): string {
  const xy = secp256k1PublicKeyBytes(publicKey);
  return toChecksumAddress(bytesToHex(keccak_256(xy).subarray(12)));
}

export type BitcoinNetwork = 'mainnet' | 'testnet' | 'regtest';

const BECH32_HRP: Record<BitcoinNetwork, string> = { mainnet: 'bc', testnet: 'tb', regtest: 'bcrt' };

/** hash160 = ripemd160(sha256(data)). */
export function hash160(data: Uint8Array): Uint8Array {
  return ripemd160(sha256(data));
}

/** The P2WPKH (native segwit v0) address of a secp256k1 public key; `network` or an explicit hrp. */
export function bitcoinP2wpkhAddress(
  publicKey: Uint8Array | string,
  network: BitcoinNetwork | 'bc' | 'tb' | 'bcrt' = 'mainnet',
): string {
  const hrp = network in BECH32_HRP ? BECH32_HRP[network as BitcoinNetwork] : network;
  if (hrp !== 'bc' && hrp !== 'tb' && hrp !== 'bcrt')
    throw new DerivationError(`unknown Bitcoin network ${network}`);
  const program = hash160(compressSecp256k1PublicKey(publicKey));
  return bech32.encode(hrp, [0, ...bech32.toWords(program)]);
}

/** The Solana address (base58 of the key) of an ed25519 public key. */
export function solanaAddress(publicKey: Uint8Array | string): string {
  return base58.encode(ed25519PublicKeyBytes(publicKey));
}

/** The NEAR implicit account id (64 lowercase hex characters) of an ed25519 public key. */
export function nearImplicitAccountId(publicKey: Uint8Array | string): string {
  return bytesToHex(ed25519PublicKeyBytes(publicKey));
}
