import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  checkKvAnswer,
  entryKey,
  entryWord,
  fillArgs,
  kvContractWasm,
  slotValue,
} from '../bench/metrics/views-kv-workload.js';

/** Runs a method of the kv contract on a storage Map with the few host functions it imports. */
async function runKv(storage: Map<string, Buffer>, method: 'fill' | 'get', input: Uint8Array) {
  const registers = new Map<bigint, Buffer>();
  let returned: Buffer | undefined;
  let memory: WebAssembly.Memory | undefined;
  const bytes = (ptr: bigint, len: bigint) => Buffer.from(memory!.buffer, Number(ptr), Number(len));
  const env = {
    input: (r: bigint) => registers.set(r, Buffer.from(input)),
    register_len: (r: bigint) => BigInt(registers.get(r)?.length ?? -1),
    read_register: (r: bigint, ptr: bigint) =>
      registers.get(r)!.copy(bytes(ptr, BigInt(registers.get(r)!.length))),
    storage_read: (len: bigint, ptr: bigint, r: bigint) => {
      const value = storage.get(bytes(len === 0n ? 0n : ptr, len).toString('hex'));
      if (!value) return 0n;
      registers.set(r, Buffer.from(value));
      return 1n;
    },
    storage_write: (kl: bigint, kp: bigint, vl: bigint, vp: bigint, _r: bigint) => {
      storage.set(bytes(kp, kl).toString('hex'), Buffer.from(bytes(vp, vl)));
      return 0n;
    },
    value_return: (len: bigint, ptr: bigint) => {
      returned = Buffer.from(bytes(ptr, len));
    },
    panic_utf8: (len: bigint, ptr: bigint) => {
      throw new Error(bytes(ptr, len).toString('utf8'));
    },
  };
  const { instance } = await WebAssembly.instantiate(await kvContractWasm(), { env });
  memory = instance.exports.memory as WebAssembly.Memory;
  (instance.exports[method] as () => void)();
  return returned;
}

test('the kv contract stores what fill writes and get returns it; the answer check agrees', async () => {
  const storage = new Map<string, Buffer>();
  await runKv(storage, 'fill', fillArgs(5, 3));
  assert.deepEqual(
    [...storage.keys()],
    [5, 6, 7].map((k) => entryKey(k).toString('hex')),
  );
  const value = await runKv(storage, 'get', entryKey(6));
  assert.deepEqual(value, entryWord(6));
  checkKvAnswer({ result: [...value!], logs: [] }, 6);
  assert.throws(() => checkKvAnswer({ result: [...value!] }, 7), /get\(7\)/);
  assert.throws(() => checkKvAnswer({ error: 'x', result: [] }, 6), /get\(6\)/);
  await assert.rejects(runKv(storage, 'get', entryKey(8)), /no such key/);
  await assert.rejects(runKv(storage, 'get', new Uint8Array(3)), /key must be 4 bytes/);
  assert.equal(slotValue(6), `0x${entryWord(6).toString('hex')}`);
});
