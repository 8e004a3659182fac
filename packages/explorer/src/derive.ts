/**
 * Chain-signature addresses in the browser, with the algorithm of @shadebox/mpc (derivation.ts, addresses.ts;
 * that package uses Node's Buffer, so the page has its own copy over the same @noble libraries):
 * tweak = sha3_256("near-mpc-recovery v0.1.0 epsilon derivation:" + predecessor + "," + path);
 * secp256k1: root + G·t (t big-endian) → EVM (EIP-55 of keccak256(x‖y)[12..]) and Bitcoin P2WPKH on testnet
 * (`tb1…`, the one network the CLI and `shadebox derive` print too);
 * ed25519: root + B·t (t little-endian mod ℓ) → Solana (base58 of the key).
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import { ripemd160 } from '@noble/hashes/legacy.js';
import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256, sha3_256 } from '@noble/hashes/sha3.js';
import { base58, bech32 } from '@scure/base';
import { hex } from './decode.js';

const PREFIX = 'near-mpc-recovery v0.1.0 epsilon derivation:';

export function tweakOf(predecessor: string, path: string): Uint8Array {
  return sha3_256(new TextEncoder().encode(`${PREFIX}${predecessor},${path}`));
}

const beToBigInt = (b: Uint8Array) => BigInt(`0x${hex(b) || '0'}`);

/** The Bitcoin network of the addresses shown: the stack is for development, so testnet, as the CLI. */
export const BITCOIN_NETWORK = 'testnet';

export interface DerivedAddresses {
  publicKey: string;
  evm?: string;
  /** P2WPKH on `BITCOIN_NETWORK`. */
  bitcoin?: string;
  solana?: string;
}

/** The derived key of `(predecessor, path)` under a signer root key ("secp256k1:…" or "ed25519:…"). */
export function deriveAddresses(rootKey: string, predecessor: string, path: string): DerivedAddresses {
  const tweak = tweakOf(predecessor, path);
  if (rootKey.startsWith('secp256k1:')) {
    const xy = base58.decode(rootKey.slice('secp256k1:'.length));
    const root = secp256k1.Point.fromBytes(Uint8Array.from([4, ...xy]));
    const derived = root.add(secp256k1.Point.BASE.multiply(beToBigInt(tweak)));
    const uncompressed = derived.toBytes(false).subarray(1);
    return {
      publicKey: `secp256k1:${base58.encode(uncompressed)}`,
      evm: checksumAddress(hex(keccak_256(uncompressed).subarray(12))),
      bitcoin: bech32.encode('tb', [0, ...bech32.toWords(ripemd160(sha256(derived.toBytes(true))))]),
    };
  }
  const root = ed25519.Point.fromBytes(base58.decode(rootKey.slice('ed25519:'.length)));
  const t = beToBigInt(Uint8Array.from(tweak).reverse()) % ed25519.Point.Fn.ORDER;
  const derived = (t === 0n ? root : root.add(ed25519.Point.BASE.multiply(t))).toBytes();
  return { publicKey: `ed25519:${base58.encode(derived)}`, solana: base58.encode(derived) };
}

/** EIP-55: an address (`0x` and 40 hex digits, any case) with its checksum capitals. */
export function toChecksumAddress(address: string): string {
  return checksumAddress(address.replace(/^0x/i, '').toLowerCase());
}

function checksumAddress(lowerHex: string): string {
  const hash = hex(keccak_256(new TextEncoder().encode(lowerHex)));
  let out = '0x';
  for (let i = 0; i < 40; i++)
    out += Number.parseInt(hash[i], 16) >= 8 ? lowerHex[i].toUpperCase() : lowerHex[i];
  return out;
}
