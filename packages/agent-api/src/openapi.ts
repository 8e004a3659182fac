/** The OpenAPI 3 description of the agent API (served at `{base}/openapi.json`). */
export function openApiDocument(basePath = '/api/agent'): Record<string, unknown> {
  const error = { $ref: '#/components/responses/Error' };
  const errors = {
    '400': error,
    '403': error,
    '404': error,
    '405': error,
    '413': error,
    '422': error,
    '500': error,
    '502': error,
    '503': error,
    '504': error,
  };
  const post = (summary: string, request: unknown, response: unknown) => ({
    post: {
      summary,
      requestBody: { required: false, content: { 'application/json': { schema: request } } },
      responses: {
        '200': { description: 'OK', content: { 'application/json': { schema: response } } },
        ...errors,
      },
    },
  });
  const contractRequest = (gas: boolean) => ({
    type: 'object',
    required: ['methodName'],
    additionalProperties: false,
    properties: {
      methodName: { type: 'string', pattern: '^[A-Za-z0-9_$]{1,256}$' },
      args: {
        type: 'object',
        description:
          'Method arguments (default {}). request_signature on a built-in agent contract (told by its code hash) ' +
          'takes {path, payload, key_type?} and nothing else: payload is hex, 0x optional (sent to the contract ' +
          'lowercase without 0x), 32 bytes below the secp256k1 order for key_type Ecdsa (the default), 32 to 1232 ' +
          'bytes for Eddsa; a wrong or unknown one is refused with 400 naming args.<field>. Other contracts get ' +
          'their arguments as sent.',
      },
      contractId: {
        type: 'string',
        description:
          'Default: the agent contract. Others only if listed in AGENT_API_ALLOW_CONTRACTS (else 403).',
      },
      ...(gas
        ? {
            gas: {
              type: 'string',
              pattern: '^[0-9]+$',
              description: 'Gas, decimal; default 100 Tgas, max 1 PGas',
            },
          }
        : {}),
    },
  });
  return {
    openapi: '3.0.3',
    info: {
      title: 'Shadebox agent API',
      version: '1.0.0',
      description:
        'Local HTTP API of a Shade Agent: the agent account, its balance and calls to the agent contract. ' +
        'Every route but /health answers 503 until the agent is registered.',
    },
    servers: [{ url: basePath }],
    paths: {
      '/getAccountId': post(
        'The agent account id (implicit, 64 hex)',
        { type: 'object' },
        { type: 'object', required: ['accountId'], properties: { accountId: { type: 'string' } } },
      ),
      '/getBalance': post(
        'Available balance of the agent account in yoctoNEAR (total minus the storage staking requirement)',
        { type: 'object' },
        {
          type: 'object',
          required: ['balance'],
          properties: { balance: { type: 'string', pattern: '^[0-9]+$' } },
        },
      ),
      '/call': post(
        'Calls a method of the agent contract from the agent account (a transaction); returns its result ' +
          '(JSON, or the raw string when not JSON). A panic answers 422 contract_panic. A call waits in a ' +
          'queue while the calls in flight hold the balance it needs; 422 insufficient_balance when it can ' +
          'never fit, 503 queue_full when the queue is full.',
        contractRequest(true),
        {},
      ),
      '/view': post('A view call of the agent contract; returns its result', contractRequest(false), {}),
      '/health': {
        get: {
          summary: 'Boot status: 200 when ready, 503 while booting',
          responses: {
            '200': {
              description: 'Ready',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
            },
            '503': {
              description: 'Booting',
              content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
            },
          },
        },
      },
      '/openapi.json': {
        get: { summary: 'This document', responses: { '200': { description: 'OpenAPI 3' } } },
      },
    },
    components: {
      schemas: {
        Health: {
          type: 'object',
          required: ['status', 'stage', 'ready'],
          properties: {
            status: { type: 'string', enum: ['ok', 'booting'] },
            stage: { type: 'string', enum: ['derive', 'fund', 'register', 'ready'] },
            ready: { type: 'boolean' },
            accountId: { type: 'string' },
            lastError: {
              type: 'string',
              description:
                'while booting: why the last attempt of the current stage failed (secrets redacted)',
            },
          },
        },
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: {
              type: 'object',
              required: ['code', 'message'],
              properties: {
                code: {
                  type: 'string',
                  enum: [
                    'invalid_json',
                    'too_deep',
                    'invalid_body',
                    'invalid_field',
                    'contract_not_allowed',
                    'not_found',
                    'method_not_allowed',
                    'body_too_large',
                    'method_not_found',
                    'contract_panic',
                    'contract_error',
                    'invalid_transaction',
                    'insufficient_balance',
                    'not_ready',
                    'queue_full',
                    'transaction_dropped',
                    'chain_unreachable',
                    'chain_timeout',
                    'chain_error',
                    'internal',
                  ],
                },
                message: { type: 'string' },
                field: { type: 'string' },
                stage: { type: 'string' },
                details: { description: "nearcore's error object, for contract and chain errors" },
              },
            },
          },
        },
      },
      responses: {
        Error: {
          description: 'Error',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
    },
  };
}
