/**
 * `EXPERIMENTAL_genesis_config` (alias `genesis_config`), `EXPERIMENTAL_protocol_config` and
 * `EXPERIMENTAL_receipt`.
 */
import { base58Encode } from '@shadebox/primitives';
import { stringifyJson } from '../../chain/json.js';
import { protocolConfigView } from '../../config/protocol-config-view.js';
import { parseBlockReferenceEnum, resolveBlock } from '../block-reference.js';
import type { RpcContext } from '../rpc-context.js';
import { handlerError } from '../rpc-error.js';
import { readCryptoHash, readStruct } from '../serde.js';

export function genesisConfig(ctx: RpcContext) {
  const { records: _records, ...config } = ctx.chain.genesis;
  return config;
}

export function protocolConfig(ctx: RpcContext, params: unknown) {
  // nearcore parses the params as a `BlockReference` (one key only).
  const ref = parseBlockReferenceEnum(params);
  const block = resolveBlock(ctx.chain, ref);
  if (!block) {
    // RpcProtocolConfigError::UnknownBlock: `error_message` is skip_serializing (info {}); data "Block Not Found: …".
    const what =
      'block_id' in ref
        ? typeof ref.block_id === 'number'
          ? `BLOCK HEIGHT: ${ref.block_id}`
          : `BLOCK HEADER: ${ref.block_id}`
        : 'BLOCK HEADER';
    throw handlerError('UNKNOWN_BLOCK', {}, `Block Not Found: ${what}`);
  }
  return { rawJson: stringifyJson(protocolConfigView(ctx.chain.genesis, ctx.runtimeConfig)) };
}

/** nearcore parses the params as `ReceiptReference { receipt_id: CryptoHash }`, a plain struct (an object, or an
 * array by position). */
export function receipt(ctx: RpcContext, params: unknown) {
  const { receipt_id: bytes } = readStruct(params, 'ReceiptReference', {
    receipt_id: { read: readCryptoHash },
  });
  const id = base58Encode(bytes);
  const record = ctx.chain.receipt(bytes);
  if (!record) {
    const error = { name: 'UNKNOWN_RECEIPT', info: { receipt_id: id } };
    throw handlerError('UNKNOWN_RECEIPT', { receipt_id: id }, error);
  }
  return { rawJson: stringifyJson(record.view) };
}
