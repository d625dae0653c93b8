import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BootyError } from '../errors.js';
import type { EventStore } from '../store/event-store.js';
import { readJobLog } from '../store/job-log.js';
import { jobJson } from '../views/job-json.js';
import { timelineJson } from '../views/timeline-json.js';

// A read-only view of the jobs read model and each job's log, for people and dashboards.

const ListQuery = z.object({ unfinished: z.enum(['true', 'false']).optional() });
const JobParams = z.object({ id: z.string().min(1).max(200) });

export async function jobsRoutes(app: FastifyInstance, deps: { store: EventStore }) {
  app.get('/jobs', async (request) => {
    const query = parseRequest(ListQuery, request.query, 'query');
    const jobs = await deps.store.listJobs({ unfinished: query.unfinished === 'true' });
    return { jobs: jobs.map(jobJson) };
  });

  app.get('/jobs/:id', async (request) => {
    const { id } = parseRequest(JobParams, request.params, 'path');
    const job = await deps.store.getJob(id);
    if (!job) throw new BootyError('BOOTY_E_STREAM_NOT_FOUND', { streamId: id });
    // The log in its public format: booty's domain events, each in its current shape.
    const events = (await readJobLog(deps.store, id)).map(({ event: _event, ...row }) => row);
    return { job: jobJson(job), events };
  });

  // The replay timeline, exactly as `booty replay --json` prints it.
  app.get('/jobs/:id/timeline', async (request) => {
    const { id } = parseRequest(JobParams, request.params, 'path');
    return timelineJson(deps.store, id);
  });
}

function parseRequest<T extends z.ZodType>(schema: T, value: unknown, where: string): z.infer<T> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw new BootyError('BOOTY_E_HTTP_BAD_REQUEST', {
    reason: `${where} ${issue.path.join('.')}: ${issue.message}`,
  });
}
