import { jobJson } from '../views/job-json.js';
import { type Command, dbHelp, dbOption, openExistingStore } from './command.js';
import { formatAge, table } from './format.js';

export const jobsCommand: Command = {
  name: 'jobs',
  usage: [
    'Usage: booty jobs [--json] [--db PATH|URL]',
    '',
    '  --json         print a JSON array of jobs, in the shape GET /jobs serves (see README)',
    dbHelp,
  ].join('\n'),
  options: { ...dbOption, json: { type: 'boolean' } },
  positionals: [],
  async run({ values }, io) {
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
          ['ID', 'ISSUE', 'STATE', 'ATTEMPTS', 'AGE', 'OUTCOME'],
          jobs.map((j) => [
            j.jobId,
            `${j.repo}#${j.issue}`,
            j.state,
            String(j.attempts),
            formatAge(now - j.createdAt),
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
