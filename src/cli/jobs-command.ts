import { BootyError } from '../errors.js';
import { jobJson } from '../views/job-json.js';
import type { Command } from './command.js';
import { formatAge, table } from './format.js';
import { dbHelp, dbOption, openExistingStore } from './store-option.js';

export const jobsCommand: Command = {
  name: 'jobs',
  usage: [
    'Usage: booty jobs [--json] [--db PATH|URL]',
    '       booty jobs cancel|retry <jobId> [--db PATH]',
    '',
    'Lists the jobs. `cancel` ends an unfinished job; `retry` runs a finished one again here, as a',
    'fresh job for its issue (as labeling it again does), following it as `booty run` does. Both take',
    'a SQLite store no `booty serve` holds: a serve, and the workers on PostgreSQL, take them through',
    'the jobs API (POST /jobs/<jobId>/cancel or /retry, see README).',
    '',
    '  --json         print a JSON array of jobs, in the shape GET /jobs serves (see README)',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption, json: { type: 'boolean' } },
  positionals: ['action?', 'jobId?'],
  async run({ values, positionals }, io) {
    const [action, jobId] = positionals;
    if (action !== undefined) {
      if (action !== 'cancel' && action !== 'retry')
        throw new BootyError('BOOTY_E_USAGE', {
          command: 'jobs',
          reason: `unknown action ${JSON.stringify(action)}; the actions are cancel and retry`,
        });
      if (!jobId)
        throw new BootyError('BOOTY_E_USAGE', { command: 'jobs', reason: `missing <jobId> for ${action}` });
      const { jobAction } = await import('./job-actions.js');
      return jobAction(action, jobId, values, io);
    }
    const store = await openExistingStore(values, io.env);
    try {
      const jobs = await store.listJobs();
      const now = Date.now();
      if (values.json) {
        io.out(JSON.stringify(jobs.map(jobJson), null, 2));
        return 0;
      }
      if (jobs.length === 0) {
        io.out(`No jobs yet. Label an issue, or try \`${io.self} demo\`.`);
        return 0;
      }
      io.out(
        table(
          ['ID', 'ISSUE', 'STATE', 'ATTEMPTS', 'AGE', 'WORKER', 'OUTCOME'],
          jobs.map((j) => [
            j.jobId,
            `${j.repo}#${j.issue}`,
            j.state,
            String(j.attempts),
            formatAge(now - j.createdAt),
            // Who runs it now, and for how long; empty while none does (parked, finished, queued).
            j.heldBy && j.heldSince !== null ? `${j.heldBy} (${formatAge(now - j.heldSince)})` : '',
            j.outcome ?? '',
          ]),
        ),
      );
      return 0;
    } finally {
      await store.close();
    }
  },
};
