import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { readTimeline } from '../engine/timeline.js';
import { onFirstUse } from '../on-first-use.js';
import type { EventStore } from '../store/event-store.js';

// The job view, served: a list of jobs at `/` and each job's page at `/jobs/:id/view`, the same
// page `booty replay --html` writes, kept live by server-sent events that say "changed" when the
// log grows. Read-only, with no script or style from anywhere else. Off unless BOOTY_DASHBOARD=on,
// or the server listens on loopback only (serve.ts decides).

const JobParams = z.object({ id: z.string().min(1).max(200) });
const POLL_MS = 500;
// The views (and the machine their diagram draws) load with the first page asked for, once: an
// import() on every page would ask the module loader each time.
const views = onFirstUse(() => import('../views/job-view.js'));

export async function dashboardRoutes(app: FastifyInstance, deps: { store: EventStore }) {
  const streams = new Set<FastifyReply>();
  // Streams never end by themselves: shutdown ends them, so closing waits for nothing.
  app.addHook('preClose', (done) => {
    for (const reply of streams) reply.raw.end();
    done();
  });

  /** Sends `changed` whenever `version` reads something new, until the client goes. */
  const stream = (reply: FastifyReply, version: () => Promise<string>) => {
    // booty writes this response itself, for as long as the client stays.
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-store',
      connection: 'keep-alive',
    });
    reply.raw.flushHeaders();
    streams.add(reply);
    let last: string | null = null;
    const timer = setInterval(async () => {
      const now = await version().catch(() => last);
      if (last !== null && now !== last) reply.raw.write('data: changed\n\n');
      last = now;
    }, POLL_MS);
    reply.raw.on('close', () => {
      clearInterval(timer);
      streams.delete(reply);
    });
    return reply;
  };

  app.get('/', async (_request, reply) => {
    const jobs = (await deps.store.listJobs()).sort((a, b) => b.createdAt - a.createdAt);
    const { renderJobList } = await views();
    return reply.type('text/html; charset=utf-8').send(renderJobList(jobs, { live: '/stream' }));
  });

  app.get('/jobs/:id/view', async (request, reply) => {
    const { id } = JobParams.parse(request.params);
    const timeline = await readTimeline(deps.store, id);
    const live = `/jobs/${encodeURIComponent(id)}/stream`;
    const { renderJobView } = await views();
    return reply.type('text/html; charset=utf-8').send(renderJobView(timeline, { live }));
  });

  app.get('/stream', async (_request, reply) =>
    stream(reply, async () => JSON.stringify((await deps.store.listJobs()).map((j) => [j.jobId, j.version]))),
  );

  app.get('/jobs/:id/stream', async (request, reply) => {
    const { id } = JobParams.parse(request.params);
    return stream(reply, async () => String(await deps.store.streamVersion(id)));
  });
}
