import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_WEBHOOK_BYTES } from '../../src/forges/github/webhook-body.js';
import {
  type Delivery,
  deliver,
  labelPayload,
  newDeliveryId,
  SECRET,
  signBody,
  startTestServer,
  type TestServer,
} from './gateway-harness.js';

// Every bad request gets its status and a JSON error with a stable code, stores no job and records
// no delivery (so GitHub's redelivery after a fix is not taken for a duplicate), and the server
// serves the next request.

let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s.close());

const trigger = () => labelPayload('labeled', { issue: 9 });
const notJson = '{"action": "labeled", oops';

const rows: { name: string; delivery: () => Delivery; status: number; code: string }[] = [
  {
    name: 'a missing signature',
    delivery: () => ({ payload: trigger(), signature: null }),
    status: 401,
    code: 'BOOTY_E_WEBHOOK_SIGNATURE',
  },
  {
    name: 'a signature made with another secret',
    delivery: () => ({ payload: trigger(), secret: 'not-the-secret' }),
    status: 401,
    code: 'BOOTY_E_WEBHOOK_SIGNATURE',
  },
  {
    name: 'a signature over a different body',
    delivery: () => ({ payload: trigger(), signature: signBody(SECRET, '{}') }),
    status: 401,
    code: 'BOOTY_E_WEBHOOK_SIGNATURE',
  },
  {
    name: 'a malformed signature header',
    delivery: () => ({ payload: trigger(), signature: 'sha1=abc' }),
    status: 401,
    code: 'BOOTY_E_WEBHOOK_SIGNATURE',
  },
  {
    name: 'a correctly signed body that is not JSON',
    delivery: () => ({ body: notJson }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_NOT_JSON',
  },
  {
    name: 'a correctly signed form without a payload field',
    delivery: () => ({ body: 'nothing=here', form: true }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_NOT_JSON',
  },
  {
    name: 'a missing x-github-event header',
    delivery: () => ({ payload: trigger(), event: null }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_HEADER',
  },
  {
    name: 'a missing x-github-delivery header',
    delivery: () => ({ payload: trigger(), deliveryId: null }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_HEADER',
  },
  {
    name: 'JSON that is not an issues payload',
    delivery: () => {
      const p = trigger();
      delete p.issue.number;
      return { payload: p };
    },
    status: 400,
    code: 'BOOTY_E_WEBHOOK_PAYLOAD',
  },
  {
    name: 'JSON that is not an object',
    delivery: () => ({ event: 'ping', payload: ['zen'] }),
    status: 400,
    code: 'BOOTY_E_WEBHOOK_PAYLOAD',
  },
  {
    name: 'a body over 25 MB',
    delivery: () => ({ body: `{"pad":"${'x'.repeat(MAX_WEBHOOK_BYTES)}"}` }),
    status: 413,
    code: 'BOOTY_E_WEBHOOK_TOO_LARGE',
  },
];

describe('bad input to POST /webhooks', () => {
  it.each(rows)('answers $name with $status $code, stores nothing and keeps serving', async (row) => {
    const deliveryId = newDeliveryId();
    const r = await deliver(s.url, { deliveryId, ...row.delivery() });
    expect(r.status).toBe(row.status);
    expect(Object.keys(r.body)).toEqual(['error']);
    expect(r.body.error.code).toBe(row.code);
    expect(typeof r.body.error.message).toBe('string');
    expect(await s.store.listJobs()).toEqual([]);
    const logged = s.lines.map((l) => JSON.parse(l)).filter((l) => l.code === row.code);
    if (row.delivery().deliveryId !== null) expect(logged.map((l) => l.deliveryId)).toContain(deliveryId);

    // The same delivery id, now well formed, is new to the gateway: the bad one was not recorded.
    const next = await deliver(s.url, {
      deliveryId: row.delivery().deliveryId === null ? newDeliveryId() : deliveryId,
      payload: labelPayload('labeled', { label: 'bug', issue: 9 }),
    });
    expect(next).toMatchObject({ status: 202, body: { ignored: true } });
  });

  it('answers a repeated delivery with 200 {duplicate: true}', async () => {
    const deliveryId = newDeliveryId();
    const payload = labelPayload('labeled', { label: 'bug' });
    expect((await deliver(s.url, { deliveryId, payload })).status).toBe(202);
    expect(await deliver(s.url, { deliveryId, payload })).toMatchObject({
      status: 200,
      body: { duplicate: true },
    });
  });

  it('counts the rejected deliveries by code', async () => {
    const text = await (await fetch(`${s.url}/metrics`)).text();
    expect(text).toContain('booty_webhook_deliveries_total{outcome="BOOTY_E_WEBHOOK_SIGNATURE"} 4');
    expect(text).toContain('booty_webhook_deliveries_total{outcome="BOOTY_E_WEBHOOK_TOO_LARGE"} 1');
  });
});
