/**
 * The explorer page: a header with search and the head height (live), and one view per hash route:
 * #/ (latest blocks, dev controls), #/block/ID, #/tx/HASH[?sender=ID], #/receipt/ID, #/account/ID,
 * #/signatures[/SIGNER], and the local EVM chain's #/evm, #/evm/address/0x…, #/evm/tx/0x… (views/evm.ts).
 */
import { errorBox, h, link, loading, replace } from './dom.js';
import { onLive } from './live.js';
import { rpc } from './rpc.js';
import { evmSettings } from './settings.js';
import { accountView } from './views/account.js';
import { blockView } from './views/block.js';
import { evmAddressView, evmChainView, evmTxView } from './views/evm.js';
import { home } from './views/home.js';
import { receiptView } from './views/receipt.js';
import { resolveSearch } from './views/search.js';
import { signaturesView } from './views/signatures.js';
import { txView } from './views/tx.js';

const main = h('main');
const headHeight = h('span', { class: 'head', 'data-head': '' }, '…');
const searchInput = h('input', {
  type: 'search',
  name: 'q',
  placeholder: 'Search a height, block / transaction / receipt hash, account id, or 0x… EVM address / tx',
  'aria-label': 'search',
}) as HTMLInputElement;
const searchError = h('div', { class: 'search-error' });
const nav = h('nav', null, link('/', 'Blocks'), link('/signatures', 'Chain signatures'));

const searchForm = h(
  'form',
  {
    class: 'search',
    onsubmit: async (event: Event) => {
      event.preventDefault();
      replace(searchError);
      try {
        location.hash = `#${await resolveSearch(searchInput.value)}`;
        searchInput.value = '';
      } catch (error) {
        replace(searchError, errorBox(error));
      }
    },
  },
  searchInput,
  h('button', { type: 'submit' }, 'Search'),
);

document.body.append(
  h(
    'header',
    null,
    h('a', { class: 'brand', href: '#/' }, 'Shadebox ', h('span', null, 'explorer')),
    nav,
    searchForm,
    h('span', { class: 'head-wrap' }, 'head ', headHeight),
  ),
  searchError,
  main,
);

// The head height in the header, live; read once at load too, so the page is whole without the worker.
let live = false;
onLive((e) => {
  live = true;
  headHeight.textContent = String(e.height);
});
void rpc('block', { finality: 'optimistic' }).then(
  (block) => {
    if (!live) headHeight.textContent = String(block.header.height);
  },
  () => undefined,
);

// The EVM chain's page, when the stack runs one.
void evmSettings().then((evm) => {
  if (evm) nav.append(link('/evm', 'EVM chain'));
});

let dispose: (() => void) | undefined;
let generation = 0;

async function show(): Promise<void> {
  dispose?.();
  dispose = undefined;
  const mine = ++generation;
  const [path, queryText] = location.hash.replace(/^#/, '').split('?');
  const params = new URLSearchParams(queryText ?? '');
  const parts = (path || '/').split('/').filter(Boolean).map(decodeURIComponent);
  replace(main, loading());
  replace(searchError);
  try {
    let view: HTMLElement;
    switch (parts[0]) {
      case undefined: {
        const page = home();
        dispose = page.dispose;
        view = page.view;
        break;
      }
      case 'block':
        view = await blockView(parts[1]);
        break;
      case 'tx':
        view = await txView(parts[1], params.get('sender') ?? undefined);
        break;
      case 'receipt':
        view = await receiptView(parts[1]);
        break;
      case 'account':
        view = await accountView(parts[1]);
        break;
      case 'signatures':
        view = await signaturesView(parts[1]);
        break;
      case 'evm':
        if (parts[1] === 'address') view = await evmAddressView(parts[2] ?? '');
        else if (parts[1] === 'tx') view = await evmTxView(parts[2] ?? '');
        else if (parts[1] === undefined) view = await evmChainView();
        else throw new Error(`no page ${path}`);
        break;
      default:
        throw new Error(`no page ${path}`);
    }
    if (mine === generation) replace(main, view);
  } catch (error) {
    if (mine === generation) replace(main, errorBox(error));
  }
  if (mine === generation) document.body.dataset.ready = location.hash || '#/';
}

window.addEventListener('hashchange', () => void show());
void show();
