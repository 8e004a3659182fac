/**
 * An account: balance, keys, contract (code hash and size), decoded state, its recent transactions (a scan
 * of the last blocks, scan.ts), and for the agent and signer contracts what their views say.
 */

import { decodeBytes } from '../decode.js';
import {
  accountLink,
  blockLink,
  card,
  errorBox,
  facts,
  h,
  link,
  loading,
  replace,
  table,
  txLink,
} from '../dom.js';
import { bytes, near } from '../format.js';
import type { Json } from '../json.js';
import { base64ToBytes, query, viewJson } from '../rpc.js';
import { findTransactions, SCAN_BLOCKS } from '../scan.js';
import { actionSummary } from './actions.js';

const STATE_SHOWN = 200;
const EMPTY_CODE_HASH = '11111111111111111111111111111111';

export async function accountView(id: string): Promise<HTMLElement> {
  const account = await query({ request_type: 'view_account', account_id: id });
  const keys = await query({ request_type: 'view_access_key_list', account_id: id });
  const hasCode = account.code_hash !== EMPTY_CODE_HASH;
  const code = hasCode
    ? await query({ request_type: 'view_code', account_id: id }).catch(() => undefined)
    : undefined;
  const codeSize = code ? base64ToBytes(code.code_base64).length : 0;
  const txs = h('div', null, loading());
  const contractViews = h('div');
  const view = h(
    'div',
    null,
    card(
      h('span', { 'data-account': id }, id),
      facts([
        ['balance', h('strong', { 'data-balance': '' }, near(account.amount))],
        ['locked', near(account.locked)],
        ['storage used', bytes(account.storage_usage)],
        [
          'contract',
          hasCode
            ? h('span', null, h('code', null, account.code_hash), ` · ${bytes(codeSize)}`)
            : h('span', { class: 'muted' }, 'none'),
        ],
        ['as of block', blockLink(account.block_height)],
      ]),
    ),
    card(
      `Access keys (${keys.keys.length})`,
      table(
        ['public key', 'nonce', 'permission'],
        keys.keys.map((k: Json) => [
          h('code', null, k.public_key),
          String(k.access_key.nonce),
          permission(k.access_key.permission),
        ]),
        'no keys',
      ),
    ),
    contractViews,
    hasCode ? await stateCard(id) : null,
    card(`Transactions (signed by or sent to ${id}, last ${SCAN_BLOCKS} blocks)`, txs),
  );
  void findTransactions((t) => t.signer_id === id || t.receiver_id === id).then(
    ({ found, scanned }) =>
      replace(
        txs,
        table(
          ['hash', 'block', 'signer', 'receiver', 'actions'],
          found.map((t) => [
            txLink(t.hash, t.signer_id),
            blockLink(t.height),
            accountLink(t.signer_id),
            accountLink(t.receiver_id),
            actionSummary(t.actions),
          ]),
          `no transactions in the last ${scanned} blocks`,
        ),
      ),
    (error) => replace(txs, errorBox(error)),
  );
  if (hasCode) void contractCards(id, contractViews);
  return view;
}

function permission(p: Json) {
  if (p === 'FullAccess') return 'full access';
  const fc = p.FunctionCall;
  const methods = fc.method_names.length ? fc.method_names.join(', ') : 'any method';
  const allowance = fc.allowance === null ? 'unlimited' : near(fc.allowance);
  return `function call to ${fc.receiver_id} (${methods}; allowance ${allowance})`;
}

async function stateCard(id: string) {
  try {
    // `limit` pages the state (docs/rpc.md), so a contract with a large state still shows its first entries.
    const state = await query({
      request_type: 'view_state',
      account_id: id,
      prefix_base64: '',
      limit: STATE_SHOWN,
    });
    const values = state.values as Array<{ key: string; value: string }>;
    return card(
      state.last_key ? `State (first ${values.length} entries)` : `State (${values.length} entries)`,
      table(
        ['key', 'value'],
        values.map((v) => [decodedCell(v.key), decodedCell(v.value)]),
        'no state',
      ),
    );
  } catch (error) {
    return card('State', errorBox(error));
  }
}

function decodedCell(base64: string) {
  const d = decodeBytes(base64ToBytes(base64));
  const text = d.text.length > 1500 ? `${d.text.slice(0, 1500)}…` : d.text;
  return h('div', { class: 'decoded' }, h('span', { class: 'tag' }, d.kind), h('pre', null, text));
}

/** The agent contract's registrations and the signer's keys, found by calling their views. */
async function contractCards(id: string, into: HTMLElement) {
  const agents = await viewJson(id, 'get_agents', { from_index: 0, limit: 100 }).catch(() => undefined);
  if (Array.isArray(agents)) {
    const [owner, mpc, codehashes] = await Promise.all([
      viewJson(id, 'get_owner').catch(() => '?'),
      viewJson(id, 'get_mpc_contract_id').catch(() => '?'),
      viewJson(id, 'get_approved_codehashes', { from_index: 0, limit: 100 }).catch(() => []),
    ]);
    into.append(
      card(
        'Agent contract',
        facts([
          ['owner', accountLink(owner)],
          [
            'signer contract',
            h('span', null, accountLink(mpc), ' · ', link(`/signatures/${mpc}`, 'its requests')),
          ],
          ['approved code hashes', codehashes.length ? h('code', null, codehashes.join('\n')) : 'none'],
        ]),
        h('h3', null, `Registered agents (${agents.length})`),
        table(
          ['agent account', 'code hash', 'checksum'],
          agents.map((a: Json) => [
            accountLink(a.account_id),
            h('code', null, a.codehash ?? '—'),
            a.checksum ?? '—',
          ]),
          'no agent registered',
        ),
      ),
    );
  }
  const rootKey = await viewJson(id, 'public_key', {}).catch(() => undefined);
  if (typeof rootKey === 'string') {
    const edKey = await viewJson(id, 'public_key', { domain_id: 1 }).catch(() => '—');
    into.append(
      card(
        'Signer contract',
        facts([
          ['root key, domain 0 (secp256k1)', h('code', null, rootKey)],
          ['root key, domain 1 (ed25519)', h('code', null, String(edKey))],
          ['requests', link(`/signatures/${id}`, 'sign requests and responses')],
        ]),
      ),
    );
  }
}
