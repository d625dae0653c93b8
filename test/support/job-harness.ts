import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Supervisor, type SupervisorOptions } from '../../src/engine/supervisor.js';
import { JobRequested, type JobRequestedInput } from '../../src/events/job-events.js';
import { Intake } from '../../src/intake/deliveries.js';
import { initialContext, type JobContext, jobView } from '../../src/machines/job-context.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { type Script, scriptedEffects } from './scripted-effects.js';

export function tempDir(prefix = 'booty-test-') {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const sampleRequest = (issue = 1) => ({
  repo: { owner: 'acme', name: 'widgets' },
  issue: {
    number: issue,
    title: 'Add an add() function',
    body: 'Please add add(a, b).',
    url: `https://github.test/acme/widgets/issues/${issue}`,
  },
  triggerLabel: 'booty',
  sender: 'octocat',
  installationId: null,
});

/** A reviewer's comment on the sample issue, mentioning booty, as a gateway hands it to the supervisor. */
export const issueComment = (
  commentId: number,
  body = `Note ${commentId}.`,
): Parameters<Intake['submit']> => [
  { id: `d-comment-${commentId}`, event: 'issue_comment', action: 'created' },
  {
    kind: 'wake',
    repo: { owner: 'acme', name: 'widgets' },
    target: { issue: 1 },
    event: {
      type: 'FeedbackReceived',
      place: 'issue-comment',
      author: 'reviewer',
      body,
      commentId,
      comments: [],
      mention: true,
    },
  },
];

/** A supervisor over a real SQLite file and scripted effects. */
export function harness(script: Script = {}, options: Partial<SupervisorOptions> & { db?: string } = {}) {
  const db = options.db ?? path.join(tempDir(), 'booty.db');
  const store = new SqliteEventStore(db);
  const effects = scriptedEffects(script);
  const supervisor = new Supervisor({
    store,
    effects: effects.impls,
    concurrency: 2,
    ...options,
    settings: { retryBaseMs: 1, retryCapMs: 5, ...options.settings },
  });
  const intake = new Intake(supervisor);
  let n = 0;
  const request = (issue = 1) =>
    intake.submit(
      { id: `delivery-${issue}-${++n}`, event: 'issues', action: 'labeled' },
      { kind: 'request', request: sampleRequest(issue) },
    );
  return { db, store, supervisor, intake, effects, request };
}

/**
 * The view effects receive for a job that was just requested on acme/widgets: the request's parts
 * merge over a sample (issue fields one by one, settings through their schema defaults).
 */
export function sampleJobView(
  request: Partial<Omit<JobRequestedInput, 'issue'>> & { issue?: Partial<JobRequestedInput['issue']> } = {},
  overrides: Partial<JobContext> = {},
): JobContext {
  const { issue, ...rest } = request;
  const parsed = JobRequested.parse({
    ...sampleRequest(),
    type: 'JobRequested',
    jobId: 'job-1',
    deliveryId: 'd-1',
    requestedAt: 1,
    settings: {},
    ...rest,
    issue: { ...sampleRequest().issue, ...issue },
  });
  return { ...jobView(initialContext(parsed)), ...overrides };
}
