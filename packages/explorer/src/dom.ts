/**
 * A few lines of DOM building instead of a UI library: `h(tag, attributes, ...children)` makes an element;
 * strings become text nodes (never HTML), `on<event>` attributes become listeners.
 */
import { toChecksumAddress } from './derive.js';

export type Child = Node | string | number | null | undefined | false | Child[];

export function h(tag: string, attributes: Record<string, unknown> | null = null, ...children: Child[]) {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes ?? {})) {
    if (value === undefined || value === null || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') {
      el.addEventListener(name.slice(2).toLowerCase(), value as EventListener);
    } else if (name === 'class') el.className = String(value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append(el: Node, children: Child[]): void {
  for (const child of children) {
    if (child === null || child === undefined || child === false) continue;
    if (Array.isArray(child)) append(el, child);
    else el.appendChild(typeof child === 'object' ? child : document.createTextNode(String(child)));
  }
}

export function replace(el: Element, ...children: Child[]): void {
  el.textContent = '';
  append(el, children);
}

/** A link inside the page (hash routes). */
export function link(route: string, text: Child, title?: string) {
  return h('a', { href: `#${route}`, title }, text);
}

export const accountLink = (id: string) => link(`/account/${encodeURIComponent(id)}`, id);
export const blockLink = (hashOrHeight: string | number, text?: string) =>
  link(`/block/${hashOrHeight}`, text ?? String(hashOrHeight));
export const txLink = (hash: string, sender?: string) =>
  link(`/tx/${hash}${sender ? `?sender=${encodeURIComponent(sender)}` : ''}`, short(hash), hash);

export function short(hash: string): string {
  return hash.length > 14 ? `${hash.slice(0, 6)}…${hash.slice(-6)}` : hash;
}

/** A section with a title. */
export function card(title: Child, ...body: Child[]) {
  return h('section', { class: 'card' }, h('h2', null, title), ...body);
}

/** A two-column table of facts. */
export function facts(rows: Array<[string, Child]>) {
  return h(
    'table',
    { class: 'facts' },
    rows.map(([k, v]) => h('tr', null, h('th', null, k), h('td', null, v))),
  );
}

export function table(head: string[], rows: Child[][], empty = 'nothing yet') {
  if (rows.length === 0) return h('p', { class: 'muted' }, empty);
  return h(
    'table',
    { class: 'list' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        head.map((t) => h('th', null, t)),
      ),
    ),
    h(
      'tbody',
      null,
      rows.map((r) =>
        h(
          'tr',
          null,
          r.map((c) => h('td', null, c)),
        ),
      ),
    ),
  );
}

export function errorBox(error: unknown) {
  return h('div', { class: 'error' }, error instanceof Error ? error.message : String(error));
}

export const loading = () => h('p', { class: 'muted' }, 'loading…');

/** Links to the local EVM chain's pages (views/evm.ts); addresses are shown with their EIP-55 checksum. */
export function evmAddressLink(address: string, shorten = false) {
  const shown = toChecksumAddress(address);
  return link(`/evm/address/${shown}`, shorten ? short(shown) : shown, shown);
}
export const evmTxLink = (hash: string) => link(`/evm/tx/${hash}`, short(hash), hash);
