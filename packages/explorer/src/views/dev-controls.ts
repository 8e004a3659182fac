/** Buttons for the node's `sandbox_*` methods (docs/dev-controls.md): produce, fast-forward, snapshot, revert. */
import { card, errorBox, h, replace } from '../dom.js';
import { rpc } from '../rpc.js';

const snapshots: Array<{ id: string; height: number }> = [];

export function devControls(): HTMLElement {
  const result = h('div', { class: 'result', 'data-dev-result': '' });
  const count = h('input', {
    type: 'number',
    min: '1',
    value: '100',
    'aria-label': 'blocks to fast-forward',
  });
  const revertTo = h('select', { 'aria-label': 'snapshot to revert to' });
  const refreshSnapshots = () =>
    replace(
      revertTo,
      snapshots.length === 0
        ? h('option', { value: '' }, 'no snapshot yet')
        : snapshots.map((s) => h('option', { value: s.id }, `snapshot ${s.id} (height ${s.height})`)),
    );
  refreshSnapshots();
  const act = (label: string, run: () => Promise<string>) => async (event: Event) => {
    const button = event.currentTarget as HTMLButtonElement;
    button.disabled = true;
    replace(result, h('span', { class: 'muted' }, `${label}…`));
    try {
      replace(result, await run());
    } catch (error) {
      replace(result, errorBox(error));
    } finally {
      button.disabled = false;
    }
  };
  const head = async () => (await rpc('block', { finality: 'optimistic' })).header.height as number;
  return card(
    'Dev controls',
    h(
      'div',
      { class: 'controls' },
      h(
        'button',
        {
          onclick: act('producing a block', async () => {
            const r = await rpc('sandbox_produce_blocks', { count: 1 });
            return `produced block ${r.block_height}`;
          }),
        },
        'Produce a block',
      ),
      h(
        'span',
        { class: 'group' },
        count,
        h(
          'button',
          {
            onclick: act('fast-forwarding', async () => {
              const n = Number((count as HTMLInputElement).value);
              await rpc('sandbox_fast_forward', { delta_height: n });
              return `fast-forwarded ${n} blocks: head is at ${await head()}`;
            }),
          },
          'Fast-forward',
        ),
      ),
      h(
        'button',
        {
          onclick: act('taking a snapshot', async () => {
            const id = String(await rpc('sandbox_snapshot', []));
            snapshots.push({ id, height: await head() });
            refreshSnapshots();
            (revertTo as HTMLSelectElement).value = id;
            return `snapshot ${id} taken`;
          }),
        },
        'Snapshot',
      ),
      h(
        'span',
        { class: 'group' },
        revertTo,
        h(
          'button',
          {
            onclick: act('reverting', async () => {
              const id = (revertTo as HTMLSelectElement).value;
              if (!id) throw new Error('take a snapshot first');
              const r = await rpc('sandbox_revert', { snapshot_id: id });
              return `reverted to snapshot ${id}: head is at ${r.block_height}`;
            }),
          },
          'Revert',
        ),
      ),
    ),
    result,
    h(
      'p',
      { class: 'muted small' },
      'These call the node’s sandbox_* JSON-RPC methods. Snapshots live in the node’s memory until it stops.',
    ),
  );
}
