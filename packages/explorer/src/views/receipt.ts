/** A receipt: shown inside its transaction's receipt tree, highlighted; alone when its transaction is older
 * than the scanned blocks. */
import { accountLink, card, facts, h } from '../dom.js';
import { rpc } from '../rpc.js';
import { SCAN_BLOCKS } from '../scan.js';
import { actionText } from './actions.js';
import { transactionOfReceipt } from './search.js';
import { txView } from './tx.js';

export async function receiptView(id: string): Promise<HTMLElement> {
  const tx = await transactionOfReceipt(id);
  if (tx) return txView(tx.hash, tx.sender, id);
  const r = await rpc('EXPERIMENTAL_receipt', { receipt_id: id });
  return card(
    'Receipt',
    facts([
      ['id', h('code', null, r.receipt_id)],
      ['from', accountLink(r.predecessor_id)],
      ['to', accountLink(r.receiver_id)],
      ['actions', r.receipt.Action ? r.receipt.Action.actions.map(actionText).join('; ') : 'data receipt'],
    ]),
    h(
      'p',
      { class: 'muted' },
      `Its transaction is not in the last ${SCAN_BLOCKS} blocks, so its outcome is not shown.`,
    ),
  );
}
