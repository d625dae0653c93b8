import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readJobLog } from '../../src/store/job-log.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { deliver, labelPayload, startTestServer, type TestServer } from './gateway-harness.js';

// Health, readiness, metrics and the jobs API, around one job that runs to the end.

const get = async (url: string) => {
  const res = await fetch(url);
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type'), text, json: () => JSON.parse(text) };
};

const metric = (text: string, series: string) => {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('a job run through the gateway', () => {
  let s: TestServer;
  let jobId: string;
  beforeAll(async () => {
    s = await startTestServer({ env: { BOOTY_WORKER_ID: 'test-worker' } });
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 5 }) });
    jobId = r.body.jobId;
    expect((await s.supervisor.whenFinished(jobId)).value).toBe('promoted');
  });
  afterAll(() => s.close());

  it('is listed by GET /jobs and shown with its events by GET /jobs/:id', async () => {
    const list = (await get(`${s.url}/jobs`)).json();
    // It waits with its promoted PR: not final, so it is among the unfinished.
    expect(list.jobs.map((j: any) => [j.jobId, j.state, j.final])).toEqual([[jobId, 'promoted', false]]);
    expect((await get(`${s.url}/jobs?unfinished=true`)).json().jobs.map((j: any) => j.jobId)).toEqual([
      jobId,
    ]);

    const one = (await get(`${s.url}/jobs/${jobId}`)).json();
    expect(one.job).toMatchObject({ jobId, repo: 'Codertocat/Hello-World', issue: 5, state: 'promoted' });
    expect(one.events).toEqual(
      JSON.parse(JSON.stringify((await readJobLog(s.store, jobId)).map(({ event: _e, ...row }) => row))),
    );
    expect(one.events.map((e: any) => e.type)).not.toContain(expect.stringMatching(/^xstate/));
    expect(one.events[0].type).toBe('JobRequested');
    expect(one.events.at(-1).state).toBe('promoted');
  });

  it('serves the replay timeline at GET /jobs/:id/timeline, as booty replay --json prints it', async () => {
    const timeline = (await get(`${s.url}/jobs/${jobId}/timeline`)).json();
    const events = await s.store.readStream(jobId);
    expect(timeline).toMatchObject({ jobId, verified: true, finalState: 'promoted' });
    expect(timeline.events.map((e: any) => [e.seq, e.type, e.state])).toEqual(
      events.map((e) => [e.version, e.type, e.state]),
    );
    expect((await get(`${s.url}/jobs/nope/timeline`)).status).toBe(404);
  });

  it('answers an unknown job, an unknown route and a bad query with 404/404/400 JSON errors', async () => {
    const job = await get(`${s.url}/jobs/nope`);
    expect(job.status).toBe(404);
    expect(job.json().error.code).toBe('BOOTY_E_STREAM_NOT_FOUND');
    const route = await get(`${s.url}/nowhere`);
    expect(route.status).toBe(404);
    expect(route.json().error.code).toBe('BOOTY_E_HTTP_NOT_FOUND');
    const query = await get(`${s.url}/jobs?unfinished=maybe`);
    expect(query.status).toBe(400);
    expect(query.json().error.code).toBe('BOOTY_E_HTTP_BAD_REQUEST');
  });

  it('reports deliveries, job states, effect durations and tokens in Prometheus format', async () => {
    const m = await get(`${s.url}/metrics`);
    expect(m.status).toBe(200);
    expect(m.type).toContain('text/plain');
    expect(metric(m.text, 'booty_webhook_deliveries_total{outcome="created"}')).toBe(1);
    expect(metric(m.text, 'booty_jobs{state="promoted"}')).toBe(1);
    // The job waits with its PR, parked: it holds nothing in this process.
    expect(metric(m.text, 'booty_jobs_running_here{worker="test-worker"}')).toBe(0);
    expect(metric(m.text, 'booty_store_jobs{state="promoted"}')).toBe(1);
    for (const effect of ['prepare', 'runBaseline', 'analyze', 'generate', 'runTests', 'openPr', 'promotePr'])
      expect(metric(m.text, `booty_effect_duration_seconds_count{effect="${effect}",result="ok"}`)).toBe(1);
    // The scripted model spends 100 input tokens per call: one analysis and one generation.
    const job = (await s.store.getJob(jobId))!;
    expect(job.tokens).toBe(200);
    expect(metric(m.text, 'booty_tokens_total{kind="input"}')).toBe(200);
    expect(metric(m.text, 'booty_tokens_total{kind="output"}')).toBeUndefined();
  });

  it('is alive and ready', async () => {
    expect((await get(`${s.url}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await get(`${s.url}/readyz`);
    expect(ready.status).toBe(200);
    expect(ready.json()).toEqual({
      status: 'ready',
      checks: [
        { name: 'database', ok: true },
        { name: 'config', ok: true },
        { name: 'accepting', ok: true },
      ],
    });
  });
});

describe('readiness and shutdown', () => {
  it('is not ready when the database cannot be written', async () => {
    const store = new SqliteEventStore(path.join(tempDir('booty-gateway-'), 'booty.db'));
    const s = await startTestServer({ store });
    await store.close();
    const ready = await get(`${s.url}/readyz`);
    expect(ready.status).toBe(503);
    const body = ready.json();
    expect(body.error.code).toBe('BOOTY_E_NOT_READY');
    expect(body.checks[0]).toMatchObject({ name: 'database', ok: false });
    expect((await get(`${s.url}/healthz`)).status).toBe(200);
    expect((await get(`${s.url}/metrics`)).status).toBe(200);
    await s.close();
  });

  it('answers 503 BOOTY_E_SHUTTING_DOWN with Retry-After once the supervisor takes no new work', async () => {
    const s = await startTestServer();
    await s.supervisor.shutdown();
    const r = await deliver(s.url, { payload: labelPayload('labeled', { issue: 6 }) });
    expect(r.status).toBe(503);
    expect(r.body.error.code).toBe('BOOTY_E_SHUTTING_DOWN');
    expect(r.headers.get('retry-after')).toBe('10');
    expect(await s.store.listJobs()).toEqual([]);
    await s.close();
  });

  it('cuts off a client that never finishes its headers, within 10 s', async () => {
    const s = await startTestServer();
    try {
      const socket = net.connect(Number(new URL(s.url).port), '127.0.0.1');
      await new Promise((r) => socket.once('connect', r));
      socket.write('POST /webhooks HTTP/1.1\r\nHost: booty\r\nX-Slow: ');
      const ended = await new Promise<string>((resolve) => {
        let reply = '';
        socket.on('data', (d) => {
          reply += d;
        });
        socket.once('close', () => resolve(reply));
      });
      // Node answers a header timeout with 408 and closes; the socket did not stay open.
      expect(ended).toMatch(/^HTTP\/1\.1 408|^$/);
      expect(socket.destroyed).toBe(true);
    } finally {
      await s.close();
    }
  }, 12_000);
});
