/**
 * What scripts/bundle-cli.mjs changes in the code it bundles: the @noble curves and the node's crypto host
 * functions load on first use (lazy stand-ins), and then behave as the built modules do.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { p256 } from '@noble/curves/nist.js';
import { secp256k1 } from '@noble/curves/secp256k1.js';
import * as builtPrimitives from '@shadebox/primitives';
import runBundle from '../bin/run-bundle.js';
// @ts-expect-error: a plain ES module script without types
import { bundleText } from '../scripts/bundle-cli.mjs';

const { loadBundle } = runBundle as { loadBundle: (file: string) => Record<string, unknown> };
const dir = mkdtempSync(join(tmpdir(), 'shadebox-bundle-cli-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function bundled(
  entry: string,
  name: string,
): Promise<{ text: string; exports: Record<string, unknown> }> {
  const text: string = await bundleText(entry);
  const file = join(dir, `${name}.js`);
  writeFileSync(file, `// bundle ${name}\n${text}`);
  return { text, exports: loadBundle(file) };
}

const require = createRequire(import.meta.url);
/** A workspace package's built file (the package resolves to its src/ or dist/ index, one folder down). */
const built = (pkg: string, file: string) => join(dirname(require.resolve(pkg)), '..', 'dist', file);

type HostCrypto = {
  [name: string]: unknown;
  BLS12381_P1_SUM_ITEM_SIZE: number;
  ALT_BN128_G1_SUM_ITEM_SIZE: number;
  ecrecover(hash: Uint8Array, sig: Uint8Array, v: bigint, malleabilityFlag: bigint): Uint8Array | null;
  p256Verify(sig: Uint8Array, msg: Uint8Array, pubKey: Uint8Array): boolean;
  ed25519Verify(sig: Uint8Array, msg: Uint8Array, pubKey: Uint8Array): boolean;
  altBn128G1Sum(input: Uint8Array): Uint8Array;
  bls12381P1Sum(input: Uint8Array): unknown;
};

describe('bundle-cli', () => {
  it('crypto host functions: stand-ins that load the real modules on the first call, with the same results', async () => {
    const entry = built('@shadebox/node', 'vm/host-crypto/index.js');
    const builtCrypto = (await import(pathToFileURL(entry).href)) as HostCrypto;
    const { text, exports } = await bundled(entry, 'host-crypto');
    // Reached only through a stand-in's require (esbuild: `init_<module>(), __toCommonJS(<module>_exports)`), so
    // the module initialises on the first call, not when the bundle loads.
    for (const name of ['alt_bn128', 'bls12_381', 'ecrecover', 'ed25519_verify', 'p256_verify']) {
      assert.ok(text.includes(`__toCommonJS(${name}_exports)`), `${name} is required by a stand-in`);
    }
    const crypto = exports as unknown as HostCrypto;
    assert.deepEqual(Object.keys(crypto).sort(), Object.keys(builtCrypto).sort());
    assert.equal(crypto.BLS12381_P1_SUM_ITEM_SIZE, builtCrypto.BLS12381_P1_SUM_ITEM_SIZE);
    assert.equal(crypto.ALT_BN128_G1_SUM_ITEM_SIZE, builtCrypto.ALT_BN128_G1_SUM_ITEM_SIZE);

    const hash = createHash('sha256').update('bundle-cli').digest();
    const secret = secp256k1.utils.randomSecretKey();
    const recovered = secp256k1.sign(hash, secret, { prehash: false, format: 'recovered' });
    const sig = recovered.subarray(1);
    const v = BigInt(recovered[0]);
    assert.deepEqual(crypto.ecrecover(hash, sig, v, 1n), builtCrypto.ecrecover(hash, sig, v, 1n));
    assert.notEqual(crypto.ecrecover(hash, sig, v, 1n), null);

    const p256Secret = p256.utils.randomSecretKey();
    const p256Sig = p256.sign(hash, p256Secret); // the host function hashes the message (prehash)
    const p256Public = p256.getPublicKey(p256Secret, true);
    assert.equal(crypto.p256Verify(p256Sig, hash, p256Public), true);
    assert.equal(builtCrypto.p256Verify(p256Sig, hash, p256Public), true);

    const ed = builtPrimitives.KeyPair.fromRandom('ed25519');
    const edSig = ed.sign(hash).data;
    assert.equal(crypto.ed25519Verify(edSig, hash, ed.publicKey.data), true);
    edSig[0] ^= 1;
    assert.equal(crypto.ed25519Verify(edSig, hash, ed.publicKey.data), false);

    assert.deepEqual(crypto.altBn128G1Sum(new Uint8Array()), builtCrypto.altBn128G1Sum(new Uint8Array()));
    assert.deepEqual(crypto.bls12381P1Sum(new Uint8Array()), builtCrypto.bls12381P1Sum(new Uint8Array()));
  });

  it('primitives: secp256k1 and ML-DSA-65 keys sign and verify through the lazy curves as the build does', async () => {
    const { text, exports } = await bundled(built('@shadebox/primitives', 'index.js'), 'primitives');
    for (const name of ['secp256k1', 'ml_dsa']) {
      assert.ok(text.includes(`__toCommonJS(${name}_exports)`), `${name} is required by a stand-in`);
    }
    const primitives = exports as unknown as typeof builtPrimitives;
    // A secp256k1 key signs a 32-byte message (a hash), as a transaction's.
    const message = new Uint8Array(createHash('sha256').update('bundle-cli').digest());
    const secp = primitives.KeyPair.fromRandom('secp256k1');
    const secpSig = secp.sign(message);
    assert.equal(builtPrimitives.verifySignature(message, secpSig, secp.publicKey), true);
    const builtSecp = builtPrimitives.KeyPair.fromString(secp.toString());
    assert.equal(primitives.verifySignature(message, builtSecp.sign(message), builtSecp.publicKey), true);
    assert.equal(builtSecp.publicKey.data.length, secp.publicKey.data.length);

    const seed = new Uint8Array(32).fill(7);
    const ml = primitives.KeyPair.fromMlDsa65Seed(seed);
    const builtMl = builtPrimitives.KeyPair.fromMlDsa65Seed(seed);
    assert.deepEqual(ml.publicKey.data, builtMl.publicKey.data);
    assert.equal(primitives.verifySignature(message, builtMl.sign(message), builtMl.publicKey), true);
    assert.equal(builtPrimitives.verifySignature(message, ml.sign(message), ml.publicKey), true);
  });

  it("lmdb bundled (near-sandbox's bundle): loads on the first open, with the installed native addon", async (t) => {
    // Beside the CLI's own folders, as bundle/ is: the bundled lmdb finds the installed one from there.
    const cliDir = dirname(fileURLToPath(new URL('../package.json', import.meta.url)));
    const place = mkdtempSync(join(cliDir, '.bundle-cli-test-'));
    // Removed when the test ends, and again as the process exits: loadBundle writes the bundle's code cache
    // beside it a second later (bin/run-bundle.js), making the folder anew in a process that runs on.
    const remove = () => rmSync(place, { recursive: true, force: true });
    t.after(remove);
    process.once('exit', remove);
    const entry = join(place, 'entry.mjs');
    writeFileSync(
      entry,
      "import { ABORT, open } from 'lmdb'; export { open }; export const abort = () => ABORT;\n",
    );
    const text: string = await bundleText(entry, { lmdbBundled: true });
    assert.ok(text.includes('__lmdb_file'), "lmdb's index.cjs is in the bundle");
    const file = join(place, 'lmdb-bundle.js');
    writeFileSync(file, `// bundle lmdb\n${text}`);
    const lmdb = loadBundle(file) as {
      open: (options: object) => {
        put(key: Uint8Array, value: Uint8Array): Promise<boolean>;
        get(key: Uint8Array): Uint8Array | undefined;
        close(): Promise<void>;
      };
      abort: () => unknown;
    };
    assert.equal(lmdb.abort(), undefined, 'nothing loaded before the first open');
    const path = join(dir, 'lmdb-store');
    const db = lmdb.open({
      path,
      keyEncoding: 'binary',
      encoding: 'binary',
      cache: false,
      compression: false,
    });
    assert.notEqual(lmdb.abort(), undefined, 'ABORT is set once open');
    assert.equal(process.env.MSGPACKR_NATIVE_ACCELERATION_DISABLED, undefined, 'the switch is unset again');
    await db.put(Uint8Array.of(1, 2), Uint8Array.of(3, 4, 5));
    assert.deepEqual([...(db.get(Uint8Array.of(1, 2)) ?? [])], [3, 4, 5]);
    await db.close();
  });
});
