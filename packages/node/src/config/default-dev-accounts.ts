/**
 * The ten dev accounts of the default seed (`shadebox`) under `test.near`, as deriveDevAccounts computes them
 * (dev-accounts.ts; a test checks that they are equal). Every `shadebox node` and `shadebox up` without --seed
 * starts with these, so they are written out here rather than derived at each start: the derivation (ten
 * sha256 and ed25519 key pairs through OpenSSL, twenty base58 strings) was a tenth of a start's CPU, and the base58
 * encoder it made hot was the only function V8 optimised during a start, which maps TurboFan's code into an idle
 * node's memory (about 4 MiB of RSS). These keys are public: anyone can derive them from the documented seed.
 */
import type { KeyFile } from './node-config.js';

export const DEFAULT_SEED_DEV_ACCOUNTS: readonly Readonly<KeyFile>[] = [
  {
    account_id: 'dev-0.test.near',
    public_key: 'ed25519:CZB1A5DrchWFWResUjUSgnX51xDeeHLDxYjtz85Kdar3',
    secret_key:
      'ed25519:WtJvuaGZeauSH4xEmGUxXAYfNZeMsteeaZFioSNiHTsorhyiqANoAu5QerELiL5t8HquUv5Yi3z3gDFJaVDM9cK',
  },
  {
    account_id: 'dev-1.test.near',
    public_key: 'ed25519:59k67dbfF4jhsgStJnQCEB9UzUbj9CxySfW7VbPDjGEW',
    secret_key:
      'ed25519:3g8YAWw64MVQF2UkTaXjwU4AdRavZprCF7LxJ9DZ1J8mPue9k8h7Lg81XJVnxv2rGK8oi3s4eS66rnVh3nuxJccA',
  },
  {
    account_id: 'dev-2.test.near',
    public_key: 'ed25519:ANUh8EKzgPkn6MBTTiWFck3s87by6r9iajwx9W9Y5LCc',
    secret_key:
      'ed25519:4VT9m9Co7jyNsgwms71iiGdxDYWWaJHBxmkpw6xqw1DPqwor4gMKDKi5wM2V2SMa1eqpxFfoBfg3oMLgquWAT12c',
  },
  {
    account_id: 'dev-3.test.near',
    public_key: 'ed25519:HRhMv21fhsykBwVrHCGGVwbhYrM5yFBcXqJybVbzbTLx',
    secret_key:
      'ed25519:5Th4X9LKBouwGT8YhJ4HTkFVxbG7P151ueAffh2EiRsHiniE31fKKkewGicPZc2DqcNfmKdmU1RVvV1jHzwaeeUc',
  },
  {
    account_id: 'dev-4.test.near',
    public_key: 'ed25519:97kFeMVem5tZpAfbN97WrieSu9imjMEJjzXSr83o9hUx',
    secret_key:
      'ed25519:3twnkvoKXHTNNpWxDhgrQ7kJ9X5ukWaXcUNUVG1L2b2a88PDHsz1xmatU3j4cLHRNURYYDBR3TkdcrvipELXW17r',
  },
  {
    account_id: 'dev-5.test.near',
    public_key: 'ed25519:6Uek1MHKctf1vbUrRuHvqDE2ek2aETp5odzFirr3v6Rt',
    secret_key:
      'ed25519:3Xm9UvHPL7tc6QY4R9qHcVQ2QVCmb8YgCbUo4RzDuRSTb42KeNsEWjNYvfLwdwQGGtDFrbWgBecguzdeSEobgQUE',
  },
  {
    account_id: 'dev-6.test.near',
    public_key: 'ed25519:EPaxRgEyo1L3dNyfpAPf9sN1NBtmjGaqfLf9TxfXCDjg',
    secret_key:
      'ed25519:5w5P2qie4eccvBbDSaXjhBxUFyaEzyWrSWZDVR7FDBEaGXmkSJv7ximFJa5kAyL9PH7F96jcztVv8hHDVc3aomgn',
  },
  {
    account_id: 'dev-7.test.near',
    public_key: 'ed25519:HYDxAK2xvXk6yBvom4MVi6AchTRWBTBLDHPbs6dv5VNZ',
    secret_key:
      'ed25519:5D8xKX8kxcPQGsZEHAsftSifKV2cmzgdSHEA2uZ6J82wE6CL8p9hYvVsoQrSHCBkvmx9qWEdWVBiHR4CiZyT3H93',
  },
  {
    account_id: 'dev-8.test.near',
    public_key: 'ed25519:2nk5S1FMQ6mGbRLaCwhHdUneCSCRDXnhGUU6zqu8nKoz',
    secret_key:
      'ed25519:2mfgRL9sxrEU8ReQ5hK53imquZqmjoTQ8q86p313ydsWHymqMjsi1syM3cxyVD3Hr5qFpHFWRVHx45v8tpRZ8dAt',
  },
  {
    account_id: 'dev-9.test.near',
    public_key: 'ed25519:4aDxExHdxcd1zY3cm2yDuasdLPLNYDvCbR1hc4FdiQwA',
    secret_key:
      'ed25519:3xXvvLtrj7BnW42w1kFYogMWNeASTyQ9VCoJyx58ADAPewVfhCezEDQQVXS7ijTb4gM1ABBREMNT1U13towbpYME',
  },
];
