// Writes docs/openapi.json, the jobs API's OpenAPI document, from the route schemas:
// `npm run docs:openapi`. test/gateway/openapi.test.ts checks it is current.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadEnv } from '../src/env.js';
import { openApiDocument } from '../src/gateway/openapi-document.js';
import { intakeConfig } from '../src/intake/intake-config.js';
import { createLogger } from '../src/log.js';
import { composeBooty } from '../src/main/compose.js';

const env = loadEnv({ BOOTY_DB: ':memory:', GITHUB_WEBHOOK_SECRET: 'unused', BOOTY_WORKDIR: os.tmpdir() });
const booty = await composeBooty({ env, log: createLogger({ level: 'silent' }), effects: {} });
const { document } = await openApiDocument({ ...booty, config: intakeConfig(env) });
await booty.close();
fs.writeFileSync(
  path.resolve(import.meta.dirname, '../docs/openapi.json'),
  `${JSON.stringify(document, null, 2)}\n`,
);
