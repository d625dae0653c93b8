import type { JobRecord } from '../store/event-store.js';
import { type Command, dbHelp, dbOption, openExistingStore } from './command.js';
import { formatAge, table } from './format.js';

export const jobsCommand: Command = {
  name: 'jobs',
  summary: 'list jobs: id, repo#issue, state, attempts, age',
  usage: ['Usage: booty jobs [--json] [--db PATH]', '', '  --json         print a JSON array', dbHelp].join(
    '\n',
  ),
  options: { ...dbOption, json: { type: 'boolean' } },
  positionals: [],
  async run({ values }, io) {
    const store = openExistingStore(values, io.env);
    try {
      const jobs = await store.listJobs();
      const now = Date.now();
      if (values.json) {
        io.out(
          JSON.stringify(
            jobs.map((j) => view(j, now)),
            null,
            2,
          ),
        );
        return 0;
      }
      if (jobs.length === 0) {
        io.out('No jobs yet. Label an issue, or try `booty demo`.');
        return 0;
      }
      io.out(
        table(
          ['ID', 'ISSUE', 'STATE', 'ATTEMPTS', 'AGE', 'OUTCOME'],
          jobs.map((j) => {
            const v = view(j, now);
            return [v.id, v.issue, v.state, String(v.attempts), formatAge(v.ageMs), v.outcome ?? ''];
          }),
        ),
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};

function view(job: JobRecord, now: number) {
  return {
    id: job.jobId,
    issue: `${job.repo}#${job.issue}`,
    state: job.state,
    attempts: job.attempts,
    final: job.final,
    outcome: job.outcome,
    tokens: job.tokens,
    createdAt: new Date(job.createdAt).toISOString(),
    ageMs: now - job.createdAt,
  };
}
