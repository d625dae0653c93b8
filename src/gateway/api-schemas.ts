// The jobs API's shapes as JSON Schema: fastify checks requests against them, and @fastify/swagger
// builds the OpenAPI document (GET /openapi.json, docs/openapi.json) from them. The job's shape is
// views/job-json.ts's; objects allow more properties, so a field added there is served, not cut.

const isoTime = { type: 'string', format: 'date-time' } as const;

export const jobSchema = {
  type: 'object',
  description: 'A job, in the shape `booty jobs --json` prints.',
  required: ['jobId', 'repo', 'issue', 'state', 'final', 'outcome', 'attempts', 'tokens', 'events'],
  additionalProperties: true,
  properties: {
    jobId: { type: 'string', description: "The job's id: its event stream's id." },
    repo: { type: 'string', description: 'owner/name' },
    issue: { type: 'integer' },
    state: { type: 'string', description: 'The machine state the job last recorded.' },
    final: { type: 'boolean' },
    outcome: { type: ['string', 'null'], description: 'Why a finished job ended; null while it runs.' },
    attempts: { type: 'integer' },
    tokens: { type: 'integer', description: 'Model tokens spent so far.' },
    events: { type: 'integer', description: "How many events the job's log holds." },
    heldBy: {
      type: ['string', 'null'],
      description: 'The worker running the job now (BOOTY_WORKER_ID, else host:pid); null when none runs it.',
    },
    heldSince: {
      type: ['string', 'null'],
      format: 'date-time',
      description: 'Since when that worker has held the job; null when none does.',
    },
    createdAt: isoTime,
    updatedAt: isoTime,
  },
} as const;

export const errorSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', description: 'A stable BOOTY_E_* code.' },
        message: { type: 'string', description: 'What was wrong and what to do.' },
      },
    },
  },
} as const;

const anyObject = { type: 'object', additionalProperties: true } as const;

export const jobParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'string', minLength: 1, maxLength: 200 } },
} as const;

/** The errors every API route may answer, besides its own. */
const refusals = {
  401: { description: 'No token, or one that is unknown or revoked.', ...errorSchema },
  429: { description: 'Over BOOTY_API_RATE_LIMIT requests a minute.', ...errorSchema },
} as const;

const writeRefusals = {
  ...refusals,
  403: { description: 'A read token: writing needs a write token.', ...errorSchema },
} as const;

export const listJobsSchema = {
  summary: 'List jobs',
  tags: ['jobs'],
  querystring: {
    type: 'object',
    properties: { unfinished: { type: 'string', enum: ['true', 'false'] } },
  },
  response: {
    200: { type: 'object', required: ['jobs'], properties: { jobs: { type: 'array', items: jobSchema } } },
    ...refusals,
  },
} as const;

export const getJobSchema = {
  summary: "A job and its log, booty's domain events in their current shape",
  tags: ['jobs'],
  params: jobParams,
  response: {
    200: {
      type: 'object',
      required: ['job', 'events'],
      properties: { job: jobSchema, events: { type: 'array', items: anyObject } },
    },
    404: { description: 'No such job.', ...errorSchema },
    ...refusals,
  },
} as const;

export const timelineSchema = {
  summary: "A job's replay timeline, as `booty replay --json` prints it",
  tags: ['jobs'],
  params: jobParams,
  response: { 200: anyObject, 404: { description: 'No such job.', ...errorSchema }, ...refusals },
} as const;

const jobAnswer = {
  type: 'object',
  required: ['job'],
  properties: { job: jobSchema },
} as const;

export const startJobSchema = {
  summary: 'Start a job for an issue, as labeling it does',
  tags: ['jobs'],
  body: {
    type: 'object',
    required: ['repo', 'issue'],
    additionalProperties: false,
    properties: {
      repo: {
        type: 'string',
        pattern: '^(gitlab:)?[\\w.-]+(/[\\w.-]+)+$',
        description: 'owner/name on GitHub, gitlab:group/project on GitLab',
      },
      issue: { type: 'integer', minimum: 1 },
    },
  },
  response: {
    201: { description: 'The job started.', ...jobAnswer },
    200: { description: 'The issue has an unfinished job already: that job.', ...jobAnswer },
    ...writeRefusals,
    403: { description: 'A read token, or a repository outside BOOTY_REPOS.', ...errorSchema },
  },
} as const;

export const cancelJobSchema = {
  summary: 'Cancel an unfinished job',
  tags: ['jobs'],
  params: jobParams,
  response: {
    200: { description: 'The job is cancelled.', ...jobAnswer },
    404: { description: 'No such job.', ...errorSchema },
    409: { description: 'The job has finished already.', ...errorSchema },
    ...writeRefusals,
  },
} as const;

export const retryJobSchema = {
  summary: 'Run a finished job again: a fresh job for its issue, as labeling it again does',
  tags: ['jobs'],
  params: jobParams,
  response: {
    201: { description: 'The fresh job started.', ...jobAnswer },
    404: { description: 'No such job.', ...errorSchema },
    409: { description: 'The job has not finished, or was merged.', ...errorSchema },
    ...writeRefusals,
  },
} as const;
