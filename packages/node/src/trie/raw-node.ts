/**
 * Trie nodes as nearcore stores and hashes them (`core/store/src/trie/raw_node.rs`): the borsh encoding of
 * `RawTrieNodeWithSize { node: RawTrieNode, memory_usage: u64 }`, where
 *   0 Leaf(key, value)             u32 LE key length ‖ HP key ‖ ValueRef
 *   1 BranchNoValue(children)      Children
 *   2 BranchWithValue(value, ch.)  ValueRef ‖ Children          (the value before the children)
 *   3 Extension(key, child)        u32 LE key length ‖ HP key ‖ child hash (32)
 * Children = u16 LE bitmap (bit i: child i present) ‖ the 32-byte hash of each present child, in order;
 * ValueRef = u32 LE length ‖ sha256(value). A node's hash is sha256 of these bytes (memory_usage included);
 * values are never inlined, a node only references them by length and hash.
 */
import { sha256 } from '@shadebox/primitives';
import { scratchBytes } from '../store/scratch-bytes.js';
import { TrieNodeDecodeError } from './trie-errors.js';

/** `ValueRef`: a value as a node references it. */
export interface ValueRef {
  length: number;
  /** sha256 of the value. */
  hash: Uint8Array;
}

/** A branch's 16 children: the hash of each present child, `null` where there is none. */
export type Children = (Uint8Array | null)[];

export type RawTrieNode =
  /** `key` is the HP encoding (leaf flag set) of the rest of the path. */
  | { kind: 'leaf'; key: Uint8Array; value: ValueRef }
  /** BranchNoValue when `value` is null, BranchWithValue otherwise. */
  | { kind: 'branch'; children: Children; value: ValueRef | null }
  /** `key` is the HP encoding (leaf flag clear) of the shared path. */
  | { kind: 'extension'; key: Uint8Array; child: Uint8Array };

export interface RawTrieNodeWithSize {
  node: RawTrieNode;
  /** The memory usage of the node's whole subtree (memory-usage.ts); part of the hashed bytes. */
  memoryUsage: number;
}

export const LEAF_TAG = 0;
export const BRANCH_NO_VALUE_TAG = 1;
export const BRANCH_WITH_VALUE_TAG = 2;
export const EXTENSION_TAG = 3;

const HASH = 32;
const VALUE_REF = 4 + HASH;

/** A branch's children, all absent. */
export function emptyChildren(): Children {
  return [null, null, null, null, null, null, null, null, null, null, null, null, null, null, null, null];
}

/** The length of a node's encoding. */
export function encodedNodeLength(node: RawTrieNode): number {
  switch (node.kind) {
    case 'leaf':
      return 1 + 4 + node.key.length + VALUE_REF + 8;
    case 'extension':
      return 1 + 4 + node.key.length + HASH + 8;
    case 'branch': {
      let count = 0;
      for (let i = 0; i < 16; i++) if (node.children[i] !== null) count++;
      return 1 + (node.value === null ? 0 : VALUE_REF) + 2 + count * HASH + 8;
    }
  }
}

/**
 * The borsh bytes of `RawTrieNodeWithSize`. Every chunk encodes tens of new nodes: the integers are written by
 * hand (a DataView would move a small array off V8's heap) and a node longer than 64 bytes is carved from a
 * shared slab (store/scratch-bytes.ts) rather than given an ArrayBuffer of its own.
 */
export function encodeRawNode(node: RawTrieNode, memoryUsage: number): Uint8Array {
  const out = scratchBytes(encodedNodeLength(node));
  let o = 0;
  switch (node.kind) {
    case 'leaf':
    case 'extension': {
      out[o++] = node.kind === 'leaf' ? LEAF_TAG : EXTENSION_TAG;
      writeU32(out, o, node.key.length);
      o += 4;
      out.set(node.key, o);
      o += node.key.length;
      if (node.kind === 'leaf') {
        writeU32(out, o, node.value.length);
        out.set(node.value.hash, o + 4);
        o += VALUE_REF;
      } else {
        out.set(node.child, o);
        o += HASH;
      }
      break;
    }
    case 'branch': {
      if (node.value === null) out[o++] = BRANCH_NO_VALUE_TAG;
      else {
        out[o++] = BRANCH_WITH_VALUE_TAG;
        writeU32(out, o, node.value.length);
        out.set(node.value.hash, o + 4);
        o += VALUE_REF;
      }
      let bitmap = 0;
      for (let i = 0; i < 16; i++) if (node.children[i] !== null) bitmap |= 1 << i;
      out[o] = bitmap & 0xff;
      out[o + 1] = bitmap >>> 8;
      o += 2;
      for (let i = 0; i < 16; i++) {
        const child = node.children[i];
        if (child !== null) {
          out.set(child, o);
          o += HASH;
        }
      }
      break;
    }
  }
  writeU32(out, o, memoryUsage % 0x1_0000_0000);
  writeU32(out, o + 4, Math.floor(memoryUsage / 0x1_0000_0000));
  return out;
}

/** Decodes `RawTrieNodeWithSize`; throws `TrieNodeDecodeError` on truncated input or trailing bytes. */
export function decodeRawNode(bytes: Uint8Array): RawTrieNodeWithSize {
  const length = bytes.length;
  if (length < 1) throw truncated(0, length);
  const tag = bytes[0];
  let o = 1;
  let node: RawTrieNode;
  if (tag === LEAF_TAG || tag === EXTENSION_TAG) {
    if (o + 4 > length) throw truncated(o, length);
    const keyLength = readU32(bytes, o);
    o += 4;
    if (o + keyLength > length) throw truncated(o, length);
    const key = bytes.subarray(o, o + keyLength);
    o += keyLength;
    if (tag === LEAF_TAG) {
      if (o + VALUE_REF > length) throw truncated(o, length);
      node = {
        kind: 'leaf',
        key,
        value: { length: readU32(bytes, o), hash: bytes.subarray(o + 4, o + VALUE_REF) },
      };
      o += VALUE_REF;
    } else {
      if (o + HASH > length) throw truncated(o, length);
      node = { kind: 'extension', key, child: bytes.subarray(o, o + HASH) };
      o += HASH;
    }
  } else if (tag === BRANCH_NO_VALUE_TAG || tag === BRANCH_WITH_VALUE_TAG) {
    let value: ValueRef | null = null;
    if (tag === BRANCH_WITH_VALUE_TAG) {
      if (o + VALUE_REF > length) throw truncated(o, length);
      value = { length: readU32(bytes, o), hash: bytes.subarray(o + 4, o + VALUE_REF) };
      o += VALUE_REF;
    }
    if (o + 2 > length) throw truncated(o, length);
    const bitmap = bytes[o] | (bytes[o + 1] << 8);
    o += 2;
    const children = emptyChildren();
    for (let i = 0; i < 16; i++) {
      if ((bitmap & (1 << i)) === 0) continue;
      if (o + HASH > length) throw truncated(o, length);
      children[i] = bytes.subarray(o, o + HASH);
      o += HASH;
    }
    node = { kind: 'branch', children, value };
  } else {
    throw new TrieNodeDecodeError(`unknown node tag ${tag}`);
  }
  if (o + 8 > length) throw truncated(o, length);
  const memoryUsage = readU64(bytes, o);
  o += 8;
  if (o !== length) throw new TrieNodeDecodeError(`${length - o} bytes after the node`);
  return { node, memoryUsage };
}

function truncated(at: number, length: number): TrieNodeDecodeError {
  return new TrieNodeDecodeError(`truncated at byte ${at} of ${length}`);
}

/** A node's hash: sha256 of its encoding (nearcore's `RawTrieNodeWithSize::hash`). */
export function rawNodeHash(node: RawTrieNode, memoryUsage: number): Uint8Array {
  return sha256(encodeRawNode(node, memoryUsage));
}

function writeU32(out: Uint8Array, offset: number, value: number): void {
  out[offset] = value & 0xff;
  out[offset + 1] = (value >>> 8) & 0xff;
  out[offset + 2] = (value >>> 16) & 0xff;
  out[offset + 3] = (value >>> 24) & 0xff;
}

function readU32(bytes: Uint8Array, offset: number): number {
  return (
    (bytes[offset] | (bytes[offset + 1] << 8) | (bytes[offset + 2] << 16) | (bytes[offset + 3] << 24)) >>> 0
  );
}

function readU64(bytes: Uint8Array, offset: number): number {
  const high = readU32(bytes, offset + 4);
  // A subtree's memory usage is far below 2^53 (about 50 bytes per node); larger is not a node we wrote.
  if (high >= 0x20_0000) throw new TrieNodeDecodeError('memory_usage above 2^53');
  return high * 0x1_0000_0000 + readU32(bytes, offset);
}
