import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { identify } from '../../src/gateway/api-auth.js';
import { jobsRoutes } from '../../src/gateway/jobs-routes.js';
import { openStore } from '../../src/main/open-store.js';
import { apiTokensOf } from '../../src/store/open-api-tokens.js';
import { cli } from '../support/cli.js';
import { compiled } from '../support/compiled.js';
import { recordedJob } from '../views/recorded-job.js';

// The command line's edges, each with the exact line a user sees.

const exec = promisify(execFile);

describe('flags', () => {
  it('an unknown flag is named, with the flags the command has', async () => {
    expect(await cli(['jobs', '--jsn'])).toEqual({
      code: 2,
      out: '',
      err: 'booty jobs: unknown option --jsn; the options are --db <value>, --json, --help; see `booty jobs --help` (BOOTY_E_USAGE)',
    });
    expect((await cli(['replay', 'x', '-q'])).err).toBe(
      'booty replay: unknown option -q; the options are --db <value>, --verify, --json, --html <value>, --until <value>, --inspect, --port <value>, --relay <value>, --once, --export <value>, --help; see `booty replay --help` (BOOTY_E_USAGE)',
    );
  });

  it('a flag that needs a value, and one that takes none', async () => {
    expect(await cli(['jobs', '--db'])).toMatchObject({
      code: 2,
      err: 'booty jobs: --db needs a value, as in --db <value>; see `booty jobs --help` (BOOTY_E_USAGE)',
    });
    expect(await cli(['jobs', '--json=yes'])).toMatchObject({
      code: 2,
      err: 'booty jobs: --json takes no value, but was given "yes"; see `booty jobs --help` (BOOTY_E_USAGE)',
    });
  });
});

describe('replay --until', () => {
  it('past the end of the log is an error naming the log length; the last event is fine', async () => {
    const { db, jobId, events: log } = await recordedJob();
    const events = log.length;
    expect(await cli(['replay', jobId, '--until', String(events + 1), '--db', db])).toEqual({
      code: 2,
      out: '',
      err: `booty replay: --until ${events + 1} is past the end: job ${jobId} has ${events} events; see \`booty replay --help\` (BOOTY_E_USAGE)`,
    });
    const last = await cli(['replay', jobId, '--until', String(events), '--db', db, '--json']);
    expect(last.code).toBe(0);
    expect(JSON.parse(last.out).events.at(-1).seq).toBe(events);
  });
});

describe('one JSON shape for a job', () => {
  it('booty jobs --json and GET /jobs and GET /jobs/:id give the same object', async () => {
    const { db, jobId } = await recordedJob();
    const fromCli = JSON.parse((await cli(['jobs', '--json', '--db', db])).out);
    const store = openStore(db);
    const app = Fastify();
    // As a server on loopback serves them: no token asked.
    app.addHook('onRequest', identify({ tokens: apiTokensOf(store), open: true }));
    await jobsRoutes(app, { store });
    const url = await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const list = (await (await fetch(`${url}/jobs`)).json()) as { jobs: unknown[] };
      const one = (await (await fetch(`${url}/jobs/${jobId}`)).json()) as { job: unknown; events: unknown[] };
      expect(list.jobs).toEqual(fromCli);
      expect(one.job).toEqual(fromCli[0]);
      expect(fromCli[0]).toEqual({
        jobId,
        repo: 'acme/widgets',
        issue: 1,
        // A promoted job waits with its PR: it is not final.
        state: 'promoted',
        final: false,
        outcome: 'tests-passed',
        attempts: 2,
        // No worker holds a job that waits with its PR.
        heldBy: null,
        heldSince: null,
        tokens: expect.any(Number),
        events: one.events.length,
        createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      });
    } finally {
      await app.close();
      await store.close();
    }
  });
});

describe('hints are commands that run as printed', () => {
  it('errors name booty as it was started', async () => {
    expect((await cli(['replay', 'nope', '--db', '/nonexistent.db'], { self: 'npx booty' })).err).toBe(
      'booty replay: no database at /nonexistent.db; pass --db PATH (or a postgres:// URL) or set BOOTY_DB (`npx booty demo` makes one) (BOOTY_E_DB_MISSING)',
    );
  });

  it('the real binary, started with node from a checkout, prints `node <its path from here>`, and that runs', async () => {
    const bin = compiled('src/cli/bin.ts');
    const run = await exec(process.execPath, [bin, 'jobs', '--db', '/nonexistent.db']).catch((e) => e);
    expect(run.code).toBe(1);
    const hint = /`([^`]+)`/.exec(run.stderr)![1]!;
    expect(hint).toBe(`node ${path.relative(process.cwd(), bin)} demo`);
    const help = await exec('sh', ['-c', hint.replace(/ demo$/, ' --help')]);
    expect(help.stdout).toContain('Usage: booty <command>');
  });
});
