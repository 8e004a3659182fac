export {
  type AnsweredSignature,
  type ChainSignatureAnswers,
  type EcdsaSignatureParts,
  rememberChainSignatureAnswers,
} from './chain-signature-answers.js';
export { ANSI_COLOURS, type Colours, coloursFor, NO_COLOURS } from './colours.js';
export { type EvmSignatureUse, evmSignatureLine } from './evm-signature-line.js';
export { failureSentence } from './failure-sentence.js';
export { formatBlockEntries } from './format-entries.js';
export { attachTxLog, type TxLogOptions } from './tx-log.js';
