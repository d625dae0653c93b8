import { describe, expect, it } from 'vitest';
import { deliver, labelPayload, startTestServer } from './gateway-harness.js';

// The served job view: on for a loopback server, off elsewhere unless the operator says
// BOOTY_DASHBOARD=on, and then behind a token; its event stream says "changed" as a job's log grows.

async function status(url: string) {
  return (await fetch(url)).status;
}

describe('the dashboard', () => {
  // `view`: what GET / answers; `api`: what GET /jobs answers, without a token.
  it.each<{ env: Record<string, string>; view: number; api: number }>([
    { env: { HOST: '127.0.0.1' }, view: 200, api: 200 },
    { env: { HOST: '127.0.0.1', BOOTY_DASHBOARD: 'off' }, view: 404, api: 200 },
    { env: { HOST: '127.0.0.1', BOOTY_API_AUTH: 'token' }, view: 401, api: 401 },
    { env: { HOST: '0.0.0.0' }, view: 404, api: 401 },
    { env: { HOST: '0.0.0.0', BOOTY_DASHBOARD: 'on' }, view: 401, api: 401 },
  ])('with $env, / answers $view and /jobs $api', async ({ env, view, api }) => {
    const s = await startTestServer({ env });
    try {
      const local = s.url.replace(/\/\/[^:]+:/, '//127.0.0.1:');
      expect(await status(`${local}/`)).toBe(view);
      const page = await fetch(`${local}/`, { headers: { accept: 'text/html' } });
      const text = await page.text();
      if (view === 404) {
        // Off here: the page says so and how to turn it on, not a bare 404.
        expect(((await (await fetch(`${local}/`)).json()) as any).error.code).toBe('BOOTY_E_JOB_VIEW_OFF');
        expect(text).toContain('the job view is off on this address: set BOOTY_DASHBOARD=on to serve it');
      }
      if (view === 401) expect(text).toContain('<form method="post" action="/view/token">');
      // The JSON routes need a token away from loopback: a job's log holds a private repository's code.
      for (const route of ['/jobs', '/jobs/some-job', '/jobs/some-job/timeline']) {
        const res = await fetch(`${local}${route}`);
        const code = ((await res.json()) as any).error?.code;
        if (api === 401) expect([res.status, code]).toEqual([401, 'BOOTY_E_API_UNAUTHORIZED']);
        else if (route === '/jobs') expect(res.status).toBe(200);
        else expect([res.status, code]).toEqual([404, 'BOOTY_E_STREAM_NOT_FOUND']);
      }
    } finally {
      await s.close();
    }
  });

  it("streams 'changed' as the job's log grows, and ends its streams at shutdown", async () => {
    const s = await startTestServer({ gated: true });
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 4 }) });
    const res = await fetch(`${s.url}/jobs/${r.body.jobId}/stream`);
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const reader = res.body!.getReader();
    // Let the stream take its first look, then let the job move on.
    await new Promise((resolve) => setTimeout(resolve, 700));
    s.release();
    const { value } = await reader.read();
    expect(new TextDecoder().decode(value)).toBe('data: changed\n\n');
    await s.close();
    // Shutdown ended the stream rather than waiting on it.
    let done = false;
    while (!done) done = (await reader.read()).done;
    expect(done).toBe(true);
  });
});
