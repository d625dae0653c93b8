import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEnv } from '../../src/env.js';
import { openApiDocument } from '../../src/gateway/openapi-document.js';
import { intakeConfig } from '../../src/intake/intake-config.js';
import { composeBooty } from '../../src/main/compose.js';
import { tempDir } from '../support/job-harness.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { captureLog, startTestServer } from './gateway-harness.js';

// The jobs API's OpenAPI document is built from the routes' own schemas: it lists exactly the
// routes there are, each behind the token, and the copy in docs/ is the one a server serves.

const committed = JSON.parse(
  fs.readFileSync(path.resolve(import.meta.dirname, '../../docs/openapi.json'), 'utf8'),
) as { paths: Record<string, Record<string, any>>; security: unknown; components: any };

const dir = tempDir('booty-openapi-');
const env = loadEnv({
  BOOTY_DB: path.join(dir, 'booty.db'),
  GITHUB_WEBHOOK_SECRET: 'unused',
  BOOTY_WORKDIR: path.join(dir, 'work'),
});
const booty = await composeBooty({ env, log: captureLog().log, effects: scriptedEffects().impls });
afterAll(() => booty.close());

describe('the OpenAPI document', () => {
  it('lists exactly the routes the API registers, with their methods', async () => {
    const { document, routes } = await openApiDocument({ ...booty, config: intakeConfig(env) });
    const registered = routes.map((r) => `${r.method} ${r.url.replace(/:(\w+)/g, '{$1}')}`).sort();
    const documented = Object.entries((document as typeof committed).paths)
      .flatMap(([route, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${route}`))
      .sort();
    expect(documented).toEqual(registered);
    expect(registered).toEqual([
      'GET /jobs',
      'GET /jobs/{id}',
      'GET /jobs/{id}/timeline',
      'POST /jobs',
      'POST /jobs/{id}/cancel',
      'POST /jobs/{id}/retry',
    ]);
    // docs/openapi.json is current: `npm run docs:openapi` writes it.
    expect(document).toEqual(committed);
  });

  it('puts every operation behind a bearer token, and documents the refusals', () => {
    expect(committed.components.securitySchemes).toEqual({ token: { type: 'http', scheme: 'bearer' } });
    expect(committed.security).toEqual([{ token: [] }]);
    for (const [route, ops] of Object.entries(committed.paths)) {
      for (const [method, op] of Object.entries(ops)) {
        const codes = Object.keys(op.responses);
        expect([route, method, codes.includes('401'), codes.includes('429')]).toEqual([
          route,
          method,
          true,
          true,
        ]);
        if (method === 'post' && route !== '/jobs') expect(codes).toContain('403');
      }
    }
    expect(committed.paths['/jobs']!.post.requestBody.content['application/json'].schema.required).toEqual([
      'repo',
      'issue',
    ]);
  });

  it('is served at GET /openapi.json, without a token', async () => {
    const s = await startTestServer({ env: { HOST: '0.0.0.0' } });
    try {
      const res = await fetch(`${s.url.replace(/\/\/[^:]+:/, '//127.0.0.1:')}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual(committed);
    } finally {
      await s.close();
    }
  });
});
