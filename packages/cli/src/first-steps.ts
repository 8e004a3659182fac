/**
 * The "Try it" part of the summary: a curl line and a near-api-js snippet that work as printed against the
 * running chain with its first dev account (tested by running them as printed, ./up.e2e.test.ts).
 */

export interface Account {
  accountId: string;
  secretKey: string;
}

/** A JSON-RPC `view_account` of `accountId` with curl. */
export function curlLine(rpcUrl: string, accountId: string): string {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: 'shadebox',
    method: 'query',
    params: { request_type: 'view_account', finality: 'final', account_id: accountId },
  });
  return `curl -s ${rpcUrl} -H 'Content-Type: application/json' -d '${body}'`;
}

/** An ES module for near-api-js v7: `from` sends 1 NEAR to `to` and prints the transaction's hash. */
export function nearApiJsSnippet(rpcUrl: string, from: Account, to: string): string[] {
  return [
    "import { Account, JsonRpcProvider } from 'near-api-js';",
    '',
    `const provider = new JsonRpcProvider({ url: '${rpcUrl}' });`,
    `const account = new Account('${from.accountId}', provider, '${from.secretKey}');`,
    `const outcome = await account.transfer({ receiverId: '${to}', amount: 10n ** 24n });`,
    'console.log(outcome.transaction.hash);',
  ];
}
