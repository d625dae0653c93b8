import { describe, expect, it } from 'vitest';
import { labelPayload, newDeliveryId, SECRET, signBody, startTestServer } from './gateway-harness.js';

// Probot's WEBHOOK_PATH: an App set up the Probot way posts its deliveries where it says.

describe('WEBHOOK_PATH', () => {
  it('given /api/github/webhooks, then deliveries are taken there and /webhooks is no route', async () => {
    const s = await startTestServer({ env: { WEBHOOK_PATH: '/api/github/webhooks' } });
    try {
      const post = (route: string) => {
        const body = JSON.stringify(labelPayload('labeled', { issue: 12 }));
        return fetch(`${s.url}${route}`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-github-event': 'issues',
            'x-github-delivery': newDeliveryId(),
            'x-hub-signature-256': signBody(SECRET, body),
          },
          body,
        });
      };
      const taken = await post('/api/github/webhooks');
      expect(taken.status).toBe(202);
      expect(((await taken.json()) as any).jobId).toEqual(expect.any(String));
      const old = await post('/webhooks');
      expect(old.status).toBe(404);
      expect(((await old.json()) as any).error.code).toBe('BOOTY_E_HTTP_NOT_FOUND');
    } finally {
      await s.close();
    }
  });
});
