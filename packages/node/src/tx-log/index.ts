export { ANSI_COLOURS, type Colours, coloursFor, NO_COLOURS } from './colours.js';
export { failureSentence } from './failure-sentence.js';
export { formatBlockEntries } from './format-entries.js';
export { attachTxLog, type TxLogOptions } from './tx-log.js';
