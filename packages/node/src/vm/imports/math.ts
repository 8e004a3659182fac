/**
 * Host functions for hashing, signatures and curve arithmetic (nearcore logic.rs "math API"). Each pays its
 * own base cost, then per byte, block or element — not the generic `base`, which nearcore's math functions
 * leave out (their doc comments list it; the code and the logic tests' cost counts do not); the cryptography
 * is in host-crypto/.
 */

import type { ExtCosts } from '../ext-costs.js';
import * as crypto from '../host-crypto/index.js';
import type { VMLogic } from '../vm-logic.js';

type CostName = keyof ExtCosts;

export function mathImports(vm: VMLogic) {
  const c = vm.costs;

  function hash(
    base: CostName,
    perByte: CostName,
    fn: (data: Uint8Array) => Uint8Array,
  ): (len: bigint, ptr: bigint, registerId: bigint) => void {
    return (len, ptr, registerId) => {
      vm.gas.payBase(c[base]);
      const value = vm.memoryOrRegister(ptr, len);
      vm.gas.payPer(c[perByte], BigInt(value.length));
      vm.registers.set(registerId, fn(value));
    };
  }

  function signatureCheck(
    base: CostName,
    perByte: CostName,
    verify: (sig: Uint8Array, msg: Uint8Array, pk: Uint8Array) => boolean,
  ) {
    return (
      sigLen: bigint,
      sigPtr: bigint,
      msgLen: bigint,
      msgPtr: bigint,
      pkLen: bigint,
      pkPtr: bigint,
    ): bigint => {
      vm.gas.payBase(c[base]);
      const sig = vm.memoryOrRegister(sigPtr, sigLen);
      const msg = vm.memoryOrRegister(msgPtr, msgLen);
      vm.gas.payPer(c[perByte], BigInt(msg.length));
      const pk = vm.memoryOrRegister(pkPtr, pkLen);
      return verify(sig, msg, pk) ? 1n : 0n;
    };
  }

  /** alt_bn128: the input must split into whole items (checked before the per-element charge). */
  function bn(base: CostName, element: CostName, itemSize: number) {
    return (len: bigint, ptr: bigint): Uint8Array => {
      vm.gas.payBase(c[base]);
      const data = vm.memoryOrRegister(ptr, len);
      vm.gas.payPer(c[element], crypto.altBn128ElementCount(data, itemSize));
      return data;
    };
  }

  /** BLS12-381: charged per whole item before the input is validated; returns 0 ok, 1 invalid (, 2 false). */
  function bls(
    base: CostName,
    element: CostName,
    itemSize: number,
    fn: (data: Uint8Array) => crypto.BlsResult,
  ) {
    return (len: bigint, ptr: bigint, registerId?: bigint): bigint => {
      vm.gas.payBase(c[base]);
      const data = vm.memoryOrRegister(ptr, len);
      vm.gas.payPer(c[element], crypto.bls12381ElementCount(data.length, itemSize));
      const result = fn(data);
      if (result.status === 0n && result.output && registerId !== undefined)
        vm.registers.set(registerId, result.output);
      return result.status;
    };
  }

  const g1Multiexp = bn(
    'alt_bn128_g1_multiexp_base',
    'alt_bn128_g1_multiexp_element',
    crypto.ALT_BN128_G1_MULTIEXP_ITEM_SIZE,
  );
  const g1Sum = bn('alt_bn128_g1_sum_base', 'alt_bn128_g1_sum_element', crypto.ALT_BN128_G1_SUM_ITEM_SIZE);
  const pairing = bn(
    'alt_bn128_pairing_check_base',
    'alt_bn128_pairing_check_element',
    crypto.ALT_BN128_PAIRING_CHECK_ITEM_SIZE,
  );

  return {
    sha256: hash('sha256_base', 'sha256_byte', crypto.sha256),
    keccak256: hash('keccak256_base', 'keccak256_byte', crypto.keccak256),
    keccak512: hash('keccak512_base', 'keccak512_byte', crypto.keccak512),
    sha3_256: hash('sha3_256_base', 'sha3_256_byte', crypto.sha3_256),
    sha3_384: hash('sha3_384_base', 'sha3_384_byte', crypto.sha3_384),
    sha3_512: hash('sha3_512_base', 'sha3_512_byte', crypto.sha3_512),
    ripemd160(len: bigint, ptr: bigint, registerId: bigint): void {
      vm.gas.payBase(c.ripemd160_base);
      const value = vm.memoryOrRegister(ptr, len);
      vm.gas.payPer(c.ripemd160_block, crypto.ripemd160Blocks(value.length));
      vm.registers.set(registerId, crypto.ripemd160(value));
    },
    ecrecover(
      hashLen: bigint,
      hashPtr: bigint,
      sigLen: bigint,
      sigPtr: bigint,
      v: bigint,
      malleabilityFlag: bigint,
      registerId: bigint,
    ): bigint {
      vm.gas.payBase(c.ecrecover_base);
      const sig = vm.memoryOrRegister(sigPtr, sigLen);
      const hashBytes = vm.memoryOrRegister(hashPtr, hashLen);
      const key = crypto.ecrecover(
        hashBytes,
        sig,
        BigInt.asUintN(64, v),
        BigInt.asUintN(64, malleabilityFlag),
      );
      if (!key) return 0n;
      vm.registers.set(registerId, key);
      return 1n;
    },
    ed25519_verify: signatureCheck('ed25519_verify_base', 'ed25519_verify_byte', crypto.ed25519Verify),
    p256_verify: signatureCheck('p256_verify_base', 'p256_verify_byte', crypto.p256Verify),
    /** nearcore's order: its base, the signature read and its length checked, the message read and paid per
     * byte, the key read and its length checked, then the verification (1 or 0). */
    ml_dsa_verify(
      sigLen: bigint,
      sigPtr: bigint,
      msgLen: bigint,
      msgPtr: bigint,
      pkLen: bigint,
      pkPtr: bigint,
    ): bigint {
      vm.gas.payBase(c.ml_dsa_verify_base);
      const sig = vm.memoryOrRegister(sigPtr, sigLen);
      crypto.checkMlDsaSignatureLength(sig);
      const msg = vm.memoryOrRegister(msgPtr, msgLen);
      vm.gas.payPer(c.ml_dsa_verify_byte, BigInt(msg.length));
      const pk = vm.memoryOrRegister(pkPtr, pkLen);
      return crypto.mlDsaVerify(sig, msg, pk) ? 1n : 0n;
    },
    alt_bn128_g1_multiexp(len: bigint, ptr: bigint, registerId: bigint): void {
      vm.registers.set(registerId, crypto.altBn128G1Multiexp(g1Multiexp(len, ptr)));
    },
    alt_bn128_g1_sum(len: bigint, ptr: bigint, registerId: bigint): void {
      vm.registers.set(registerId, crypto.altBn128G1Sum(g1Sum(len, ptr)));
    },
    alt_bn128_pairing_check(len: bigint, ptr: bigint): bigint {
      return crypto.altBn128PairingCheck(pairing(len, ptr)) ? 1n : 0n;
    },
    bls12381_p1_sum: bls(
      'bls12381_p1_sum_base',
      'bls12381_p1_sum_element',
      crypto.BLS12381_P1_SUM_ITEM_SIZE,
      crypto.bls12381P1Sum,
    ),
    bls12381_p2_sum: bls(
      'bls12381_p2_sum_base',
      'bls12381_p2_sum_element',
      crypto.BLS12381_P2_SUM_ITEM_SIZE,
      crypto.bls12381P2Sum,
    ),
    bls12381_g1_multiexp: bls(
      'bls12381_g1_multiexp_base',
      'bls12381_g1_multiexp_element',
      crypto.BLS12381_G1_MULTIEXP_ITEM_SIZE,
      crypto.bls12381G1Multiexp,
    ),
    bls12381_g2_multiexp: bls(
      'bls12381_g2_multiexp_base',
      'bls12381_g2_multiexp_element',
      crypto.BLS12381_G2_MULTIEXP_ITEM_SIZE,
      crypto.bls12381G2Multiexp,
    ),
    bls12381_map_fp_to_g1: bls(
      'bls12381_map_fp_to_g1_base',
      'bls12381_map_fp_to_g1_element',
      crypto.BLS12381_MAP_FP_TO_G1_ITEM_SIZE,
      crypto.bls12381MapFpToG1,
    ),
    bls12381_map_fp2_to_g2: bls(
      'bls12381_map_fp2_to_g2_base',
      'bls12381_map_fp2_to_g2_element',
      crypto.BLS12381_MAP_FP2_TO_G2_ITEM_SIZE,
      crypto.bls12381MapFp2ToG2,
    ),
    bls12381_p1_decompress: bls(
      'bls12381_p1_decompress_base',
      'bls12381_p1_decompress_element',
      crypto.BLS12381_P1_DECOMPRESS_ITEM_SIZE,
      crypto.bls12381P1Decompress,
    ),
    bls12381_p2_decompress: bls(
      'bls12381_p2_decompress_base',
      'bls12381_p2_decompress_element',
      crypto.BLS12381_P2_DECOMPRESS_ITEM_SIZE,
      crypto.bls12381P2Decompress,
    ),
    bls12381_pairing_check(len: bigint, ptr: bigint): bigint {
      return bls(
        'bls12381_pairing_base',
        'bls12381_pairing_element',
        crypto.BLS12381_PAIRING_ITEM_SIZE,
        crypto.bls12381PairingCheck,
      )(len, ptr);
    },
  };
}
