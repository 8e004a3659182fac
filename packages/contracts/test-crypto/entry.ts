// Test entry for the crypto functions: inputs are written at `input()`, outputs read at `output()`;
// each wrapper returns the output length (or a boolean as 0/1).
import { ed25519DerivePublicKey, ed25519ScalarReduce } from '../assembly/crypto/ed25519';
import {
  isLowS,
  lessThanN,
  secp256k1DeriveRecoverInput,
  secp256k1IsOnCurve,
} from '../assembly/crypto/secp256k1';
import { sha3_256 } from '../assembly/crypto/sha3';
import { sha384 } from '../assembly/crypto/sha384';

const IN: usize = memory.data(4096);
const OUT: usize = memory.data(256);

function arg(off: i32, len: i32): Uint8Array {
  const a = new Uint8Array(len);
  memory.copy(a.dataStart, IN + <usize>off, <usize>len);
  return a;
}

function ret(a: Uint8Array): i32 {
  memory.copy(OUT, a.dataStart, <usize>a.length);
  return a.length;
}

export function input(): usize {
  return IN;
}

export function output(): usize {
  return OUT;
}

export function sha3(len: i32): i32 {
  return ret(sha3_256(arg(0, len)));
}

export function sha384Of(len: i32): i32 {
  return ret(sha384(arg(0, len)));
}

export function edDerive(rootLen: i32, tweakLen: i32): i32 {
  return ret(ed25519DerivePublicKey(arg(0, rootLen), arg(rootLen, tweakLen)));
}

export function edReduce(): i32 {
  return ret(ed25519ScalarReduce(arg(0, 32)));
}

export function secpDerive(rootLen: i32, tweakLen: i32): i32 {
  return ret(secp256k1DeriveRecoverInput(arg(0, rootLen), arg(rootLen, tweakLen)));
}

export function secpOnCurve(len: i32): i32 {
  return secp256k1IsOnCurve(arg(0, len)) ? 1 : 0;
}

export function lowS(len: i32): i32 {
  return isLowS(arg(0, len)) ? 1 : 0;
}

export function belowN(len: i32): i32 {
  return lessThanN(arg(0, len)) ? 1 : 0;
}
