// Writes docs/agent-api-openapi.json from the agent API's OpenAPI document (`npm run docs:openapi`).
import { writeFileSync } from 'node:fs';

const { openApiDocument } = await import('../packages/agent-api/src/openapi.ts');
const out = new URL('../docs/agent-api-openapi.json', import.meta.url);
writeFileSync(out, `${JSON.stringify(openApiDocument(), null, 2)}\n`);
