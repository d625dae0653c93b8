import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { startInspectorServer } from '../../src/gateway/inspector-server.js';
import { startLiveInspector } from '../../src/gateway/live-inspector.js';
import { machineEventOf } from '../../src/machines/fold.js';
import { harness } from '../support/job-harness.js';
import { type Message, parse, viewer } from '../views/recorded-job.js';

/** Resolves when the viewer has seen a root actor finish. */
/** The job's actor ended, or let go when the job parked with its PR. */
const rootDone = (ws: WebSocket) =>
  new Promise<void>((resolve) =>
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Message;
      const status = m.snapshot?.status;
      if (
        m.type === '@xstate.snapshot' &&
        m.sessionId === m.rootId &&
        (status === 'done' || status === 'stopped')
      )
        resolve();
    }),
  );

describe('the live inspector (booty serve --inspect)', () => {
  it("shows a running job's actor, its effects and every logged event, to viewers now and later", async () => {
    const live = await startLiveInspector({ port: 0 });
    try {
      expect(live.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
      const early = viewer(live.url.replace('http:', 'ws:'));
      await early.opened;
      const finished = rootDone(early.ws);
      const h = harness({ tests: [false, true] }, { inspect: live.inspect });
      const r = await h.request();
      if (r.outcome !== 'created') throw new Error(r.outcome);
      await h.supervisor.whenFinished(r.jobId);
      await finished;
      const logged = await h.store.readStream(r.jobId);
      await h.store.close();

      const messages = parse(early.received);
      const root = messages.find((m) => m.type === '@xstate.actor' && m.name === 'job')!;
      expect(JSON.parse(root.definition!).id).toBe('job');
      const rootEvents = messages.filter(
        (m) =>
          m.type === '@xstate.event' && m.sessionId === root.sessionId && m.event!.type !== 'xstate.init',
      );
      // The same events the log holds, in the same order: live and replay show one history.
      expect(rootEvents.map((m) => m.event!.type)).toEqual(
        logged.slice(1).map((e) => machineEventOf(e).type),
      );
      const values = messages
        .filter((m) => m.type === '@xstate.snapshot' && m.sessionId === root.sessionId)
        .map((m) => m.snapshot!.value);
      expect(values.slice(-1)).toEqual(['promoted']);
      expect(values).toContain('refining');
      // Live, the effects really run: the inspector sees them finish.
      const effects = messages.filter((m) => m.type === '@xstate.snapshot' && m.snapshot!.status === 'done');
      expect(effects.length).toBeGreaterThanOrEqual(logged.length - 1);

      // A viewer who opens the page later is sent the history first.
      const late = viewer(live.url.replace('http:', 'ws:'));
      await new Promise<void>((resolve) =>
        late.ws.on('message', () => late.received.length === early.received.length && resolve()),
      );
      expect(late.received).toEqual(early.received);
    } finally {
      await live.close();
    }
  });
});

describe('the live inspector page', () => {
  it('says it needs stately.ai, and falls back to the served job list once told where it is', async () => {
    const live = await startLiveInspector({ port: 0 });
    try {
      const before = await (await fetch(live.url)).text();
      expect(before).toContain('needs the internet');
      live.fallbackTo('http://127.0.0.1:3000/');
      const after = await (await fetch(live.url)).text();
      expect(after).toContain('<a href="http://127.0.0.1:3000/">');
      expect(after).toContain('location.replace(local)');
    } finally {
      await live.close();
    }
  });
});

describe('the inspector server', () => {
  it('serves the page that embeds the Stately inspector and refuses sockets from other sites', async () => {
    const server = await startInspectorServer({ port: 0 });
    try {
      const page = await fetch(server.url);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(html).toContain('<iframe id="inspector" src="https://stately.ai/inspect"></iframe>');
      expect(html).toContain("new WebSocket('ws://' + location.host + '/')");
      expect((await fetch(new URL('/other', server.url))).status).toBe(404);

      const refused = await new Promise<number>((resolve) => {
        const ws = new WebSocket(server.wsUrl, { headers: { origin: 'https://evil.example' } });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('error', () => {});
      });
      expect(refused).toBe(401);
      const own = viewer(server.wsUrl, { origin: `http://127.0.0.1:${server.port}` });
      await own.opened;
      server.publish('{"type":"@xstate.event"}');
      await server.viewed();
    } finally {
      await server.close();
    }
  });

  it('names the port it cannot listen on', async () => {
    const first = await startInspectorServer({ port: 0 });
    try {
      await expect(startInspectorServer({ port: first.port })).rejects.toMatchObject({
        code: 'BOOTY_E_INSPECTOR',
        message: expect.stringContaining(`the inspector could not listen on 127.0.0.1:${first.port}: `),
      });
    } finally {
      await first.close();
    }
  });
});
