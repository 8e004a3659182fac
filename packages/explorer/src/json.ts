/** nearcore's JSON views as the page reads them: field by field, as the RPC documents them (docs/rpc.md). */
// biome-ignore lint/suspicious/noExplicitAny: the views are nearcore's JSON, read where they are shown
export type Json = any;
