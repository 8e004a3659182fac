/**
 * The local EVM chain's pages (its JSON-RPC from the node's settings, settings.ts):
 * #/evm (the chain and its latest transactions), #/evm/address/0x… (balance, nonce, code, transactions),
 * #/evm/tx/0x… (a transaction, its receipt, and the chain-signature request whose signature it carries).
 * History is a bounded scan of the last EVM_SCAN_BLOCKS blocks (evm-scan.ts).
 */

import { toChecksumAddress } from '../derive.js';
import { accountLink, card, evmAddressLink, facts, h, link, short } from '../dom.js';
import { evmRpc, NoEvmChainError, quantity } from '../evm-rpc.js';
import { EVM_SCAN_BLOCKS, type EvmTx, evmReceipt, findEvmTransactions } from '../evm-scan.js';
import { bytes, ether } from '../format.js';
import { evmSettings } from '../settings.js';
import { evmTxTable, fromTo, requestCarriedBy, requestLink, signedRequests, statusOf } from './evm-txs.js';

const scanNote = (scanned: number) =>
  h(
    'p',
    { class: 'muted small' },
    `Transactions of the last ${scanned} EVM blocks (at most ${EVM_SCAN_BLOCKS} are read). “Chain signature” names the sign request whose signature a transaction carries.`,
  );

export async function evmChainView(): Promise<HTMLElement> {
  const evm = await evmSettings();
  if (!evm) throw new NoEvmChainError();
  const [head, signed, { found, scanned }] = await Promise.all([
    evmRpc<string>('eth_blockNumber'),
    signedRequests(),
    findEvmTransactions(() => true, 25),
  ]);
  return h(
    'div',
    null,
    card(
      'EVM chain',
      facts([
        ['JSON-RPC', h('code', { 'data-evm-rpc': '' }, evm.rpcUrl)],
        ['chain id', String(evm.chainId)],
        ['head', String(quantity(head))],
      ]),
    ),
    card(
      'Latest transactions',
      scanNote(scanned),
      await evmTxTable(found, signed, 'no transaction in these blocks'),
    ),
  );
}

export async function evmAddressView(address: string): Promise<HTMLElement> {
  if (!/^0x[0-9a-fA-F]{40}$/.test(address)) throw new Error(`not an EVM address: ${address}`);
  const lower = address.toLowerCase();
  const [balance, nonce, code, signed, { found, scanned }] = await Promise.all([
    evmRpc<string>('eth_getBalance', [address, 'latest']),
    evmRpc<string>('eth_getTransactionCount', [address, 'latest']),
    evmRpc<string>('eth_getCode', [address, 'latest']),
    signedRequests(),
    findEvmTransactions((tx) => tx.from.toLowerCase() === lower || tx.to?.toLowerCase() === lower),
  ]);
  const codeBytes = (code.length - 2) / 2;
  return h(
    'div',
    null,
    card(
      h('span', { 'data-evm-address': lower }, toChecksumAddress(address)),
      facts([
        ['balance', h('strong', { 'data-evm-balance': '' }, ether(quantity(balance)))],
        ['balance (wei)', quantity(balance).toString()],
        ['nonce', String(quantity(nonce))],
        ['code', codeBytes > 0 ? `contract · ${bytes(codeBytes)}` : h('span', { class: 'muted' }, 'none')],
      ]),
    ),
    card(
      `Transactions`,
      scanNote(scanned),
      await evmTxTable(found, signed, 'no transaction in these blocks'),
    ),
  );
}

export async function evmTxView(hash: string): Promise<HTMLElement> {
  const raw = await evmRpc('eth_getTransactionByHash', [hash]);
  if (!raw) throw new Error(`no EVM transaction ${hash}`);
  const tx: EvmTx = {
    hash: raw.hash,
    from: raw.from,
    to: raw.to ?? null,
    value: quantity(raw.value),
    nonce: Number(quantity(raw.nonce)),
    r: raw.r,
    s: raw.s,
    v: raw.v,
    yParity: raw.yParity,
    blockNumber: Number(quantity(raw.blockNumber)),
    blockHash: raw.blockHash,
  };
  const pending = raw.blockNumber === null;
  const [receipt, signed] = await Promise.all([pending ? undefined : evmReceipt(hash), signedRequests()]);
  const request = requestCarriedBy(tx, signed);
  const input = (String(raw.input ?? '0x').length - 2) / 2;
  return card(
    h('span', { 'data-evm-tx-page': tx.hash }, 'EVM transaction ', short(tx.hash)),
    facts([
      ['hash', h('code', { class: 'wrap' }, tx.hash)],
      ['status', pending ? h('span', { class: 'muted' }, 'pending') : await statusOf(tx)],
      ['block', pending ? '—' : String(tx.blockNumber)],
      ['from → to', fromTo(tx)],
      ['value', ether(tx.value).endsWith(' wei') ? ether(tx.value) : `${ether(tx.value)} (${tx.value} wei)`],
      ['nonce', String(tx.nonce)],
      ['type', String(quantity(raw.type))],
      ['gas used', receipt ? receipt.gasUsed.toString() : '—'],
      ['gas price paid', receipt ? `${receipt.effectiveGasPrice} wei` : '—'],
      ['input', input > 0 ? bytes(input) : h('span', { class: 'muted' }, 'none')],
      ...(receipt?.contractAddress
        ? ([['contract created', evmAddressLink(receipt.contractAddress)]] as Array<[string, HTMLElement]>)
        : []),
      [
        'signature',
        h(
          'pre',
          { class: 'args' },
          `r ${tx.r}\ns ${tx.s}\n${tx.yParity !== undefined ? `yParity ${tx.yParity}` : `v ${tx.v}`}`,
        ),
      ],
      [
        'chain signature',
        request
          ? h('span', null, requestLink(request), ' by ', accountLink(request.predecessor))
          : h('span', { class: 'muted' }, `none of the sign requests of the last NEAR blocks`),
      ],
      ['', link('/evm', 'the EVM chain’s latest transactions')],
    ]),
  );
}
