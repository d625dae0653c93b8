import type { FastifyInstance } from 'fastify';
import { readTimeline } from '../engine/timeline.js';
import { BootyError } from '../errors.js';
import type { EventStore } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';
import { jobJson } from '../views/job-json.js';
import { timelineToJson } from '../views/timeline-json.js';
import { requireScope } from './api-auth.js';
import { getJobSchema, listJobsSchema, timelineSchema } from './api-schemas.js';

// The jobs read model and each job's log, for people and dashboards: a read token's routes.

export async function jobsRoutes(app: FastifyInstance, deps: { store: EventStore }) {
  const read = requireScope('read', 'reading jobs');

  app.get<{ Querystring: { unfinished?: 'true' | 'false' } }>(
    '/jobs',
    { schema: listJobsSchema, preHandler: read },
    async (request) => {
      const jobs = await deps.store.listJobs({ unfinished: request.query.unfinished === 'true' });
      return { jobs: jobs.map(jobJson) };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/jobs/:id',
    { schema: getJobSchema, preHandler: read },
    async (request) => {
      const { id } = request.params;
      const job = await deps.store.getJob(id);
      if (!job) throw new BootyError('BOOTY_E_STREAM_NOT_FOUND', { streamId: id });
      // The log in its public format: booty's domain events, each in its current shape.
      const events = (await readJobLog(deps.store, id)).map(({ event: _event, ...row }) => row);
      return { job: jobJson(job), events };
    },
  );

  // The replay timeline, exactly as `booty replay --json` prints it.
  app.get<{ Params: { id: string } }>(
    '/jobs/:id/timeline',
    { schema: timelineSchema, preHandler: read },
    async (request) => timelineToJson(await readTimeline(deps.store, request.params.id), false),
  );
}
