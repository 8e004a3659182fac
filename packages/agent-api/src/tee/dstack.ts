/**
 * dstack (Phala) mode through `@phala/dstack-sdk`'s DstackClient, which speaks the guest agent's HTTP API
 * (`/GetKey`, `/GetQuote`, `/Info`) over its Unix socket or an http(s) URL.
 *
 * - Agent key seed = sha256(random ‖ key the TEE derives for a path), so it is neither known to the host nor
 *   reproducible from the randomness alone.
 * - Registration: a TDX quote whose report data is the agent account id (64 ASCII bytes), the quote's
 *   checksum hex(sha256(quote)), the TCB info from `/Info` (JSON string) and collateral (JSON; the quote
 *   response's collateral when the guest agent gives one, else `{}` — fetching Intel collateral needs the
 *   network and the agent contract does not verify it).
 * - The 2.0 attestation (`attestation2`, ./dstack-attestation.ts): a quote over the implicit account's bytes,
 *   with the Info answer's tcb_info, in ShadeClient's shape.
 */
import { createHash } from 'node:crypto';
import { dstackAttestation2, reportDataFor } from './dstack-attestation.js';
import type { TeeProvider } from './provider.js';
import { TeeError } from './tee-error.js';

export const DSTACK_KEY_PATH = 'shadebox/agent-api/agent-key';

export function dstackProvider(endpoint: string): TeeProvider {
  // biome-ignore lint/suspicious/noExplicitAny: the SDK is loaded lazily; its client is used as typed below.
  let client: Promise<any> | undefined;
  const getClient = () => {
    client ??= import('@phala/dstack-sdk').then((sdk) => new sdk.DstackClient(endpoint));
    // A failed construction (socket missing) is retried on the next call.
    client.catch(() => {
      client = undefined;
    });
    return client;
  };
  return {
    mode: 'dstack',
    async agentSeed(random) {
      const c = await getClient();
      const { key } = (await c.getKey(DSTACK_KEY_PATH, 'agent-key')) as { key: Uint8Array };
      if (!(key instanceof Uint8Array) || key.length < 32)
        throw new TeeError(
          'dstack GetKey returned no key: check the dstack guest agent at DSTACK_ENDPOINT',
          'dstack',
        );
      return new Uint8Array(createHash('sha256').update(random).update(key).digest());
    },
    async registrationArgs(accountId) {
      const c = await getClient();
      const quote = (await c.getQuote(Buffer.from(accountId, 'utf8'))) as {
        quote: string;
        collateral?: unknown;
      };
      const quoteHex = String(quote.quote).replace(/^0x/, '');
      if (!/^[0-9a-fA-F]+$/.test(quoteHex))
        throw new TeeError(
          'dstack GetQuote returned no quote: check the dstack guest agent at DSTACK_ENDPOINT',
          'dstack',
        );
      const info = (await c.info()) as { tcb_info: unknown };
      const checksum = createHash('sha256').update(Buffer.from(quoteHex, 'hex')).digest('hex');
      return {
        quote_hex: quoteHex,
        collateral: JSON.stringify(quote.collateral ?? {}),
        checksum,
        tcb_info: typeof info.tcb_info === 'string' ? info.tcb_info : JSON.stringify(info.tcb_info),
      };
    },
    async attestation2(accountId) {
      const reportData = reportDataFor(accountId);
      const c = await getClient();
      const quote = (await c.getQuote(reportData)) as { quote: unknown; collateral?: unknown };
      const info = (await c.info()) as { tcb_info: unknown };
      return dstackAttestation2(quote, info.tcb_info);
    },
    isRegistered(record, args) {
      return (record as { checksum?: unknown })?.checksum === args.checksum;
    },
  };
}
