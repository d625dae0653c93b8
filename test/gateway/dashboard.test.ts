import { describe, expect, it } from 'vitest';
import { deliver, labelPayload, startTestServer } from './gateway-harness.js';

// The served job view: on for a loopback server, off elsewhere unless the operator says
// BOOTY_DASHBOARD=on; its event stream says "changed" as a job's log grows.

async function status(url: string) {
  return (await fetch(url)).status;
}

describe('the dashboard', () => {
  it.each<{ env: Record<string, string>; served: boolean }>([
    { env: { HOST: '127.0.0.1' }, served: true },
    { env: { HOST: '127.0.0.1', BOOTY_DASHBOARD: 'off' }, served: false },
    { env: { HOST: '0.0.0.0' }, served: false },
    { env: { HOST: '0.0.0.0', BOOTY_DASHBOARD: 'on' }, served: true },
  ])('with $env it is served: $served', async ({ env, served }) => {
    const s = await startTestServer({ env });
    try {
      const local = s.url.replace(/\/\/[^:]+:/, '//127.0.0.1:');
      expect(await status(`${local}/`)).toBe(served ? 200 : 404);
      // The JSON routes follow the view: a job's log holds a private repository's code.
      for (const route of ['/jobs', '/jobs/some-job', '/jobs/some-job/timeline']) {
        const res = await fetch(`${local}${route}`);
        if (served) {
          expect(res.status).toBe(route === '/jobs' ? 200 : 404);
          if (route !== '/jobs')
            expect(((await res.json()) as any).error.code).toBe('BOOTY_E_STREAM_NOT_FOUND');
        } else {
          expect(res.status).toBe(404);
          expect(((await res.json()) as any).error.code).toBe('BOOTY_E_JOB_VIEW_OFF');
        }
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
