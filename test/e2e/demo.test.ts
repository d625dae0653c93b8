import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SimStore } from '../../sim/github/github-sim-state.js';
import { catalogue, isEventType } from '../../src/events/catalogue.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { tempDir } from '../support/job-harness.js';
import { booty, bootyBin, demoJson, killWhen, lastJson, startDemo } from './cli-process.js';

// `booty demo` as a user runs it: the real CLI in its own process, offline, on a fresh directory.

describe('booty demo', () => {
  it.each([
    ['pass', 'promoted', 1, false],
    ['refine', 'promoted', 2, false],
    // Work that never passes waits with its draft PR instead of failing the job.
    ['exhausted', 'prOpened', 3, true],
  ] as const)(
    'scenario %s ends %s after %i attempt(s), and its log replays verified',
    async (scenario, state, attempts, draft) => {
      const dir = tempDir('booty-demo-');
      const out = await demoJson(scenario, dir);
      expect(out).toMatchObject({
        scenario,
        finalState: state,
        attempts,
        comments: 1,
        ok: true,
        db: path.join(dir, 'booty.db'),
      });
      expect(out.pullRequest).toMatchObject({ number: 2, draft });
      expect(out.pullRequest.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/demo\/tiny-durations\/pull\/2$/);

      // The log speaks booty: only the catalogue's event types, each at its current version.
      const store = new SqliteEventStore(out.db);
      const rows = await store.readStream(out.jobId);
      await store.close();
      expect(rows.every((r) => isEventType(r.type) && r.schemaVersion === catalogue[r.type].version)).toBe(
        true,
      );
      // Besides the steps, the only fact is GitHub's echo of booty's own promotion (when its webhook
      // arrives before the demo stops): the PR it marked ready, by booty.
      const echoes = rows.filter((r) => r.type === 'PrUpdated');
      expect(new Set(rows.filter((r) => r.type !== 'PrUpdated').map((r) => r.type))).toEqual(
        new Set(['JobRequested', 'StepSucceeded']),
      );
      for (const echo of echoes) {
        expect(draft).toBe(false);
        expect(echo.data).toMatchObject({ action: 'ready_for_review', draft: false, sender: 'booty-demo' });
      }

      const replay = await booty(['replay', out.jobId, '--verify', '--json', '--db', out.db]);
      expect(replay.code).toBe(0);
      expect(JSON.parse(replay.stdout)).toMatchObject({
        jobId: out.jobId,
        verified: true,
        finalState: state,
      });

      if (scenario === 'exhausted') {
        // The model's answers 2 and 3 recreated attempt 1's code: nothing ran, and each place that
        // lists the attempts says so.
        const repo = new SimStore(path.join(dir, 'github')).repo('demo', 'tiny-durations')!;
        const said = 'the model repeated attempt 1: not tested again';
        const comment = repo.comments[0]!.body;
        expect(comment).toContain(`\n\n**Attempt 2 of 3:** ${said}\n\n**Attempt 3 of 3:** ${said}\n\n`);
        expect(repo.pulls[0]!.body).toContain(`| 2 | 0 | ${said} |  |\n| 3 | 0 | ${said} |  |`);
      }
    },
  );

  it('given an interrupted demo, when run again on the same dir, then it resumes the same job to the end', async () => {
    const dir = tempDir('booty-demo-');
    await killWhen(startDemo('refine', dir), (out) => /\btesting\b/.test(out));

    const store = new SqliteEventStore(path.join(dir, 'booty.db'));
    const [interrupted] = await store.listJobs();
    await store.close();
    expect(interrupted?.final).toBe(false);

    const again = await booty(['demo', '--scenario', 'refine', '--dir', dir]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain(`resuming job ${interrupted!.jobId} from its log`);
    expect(again.stdout).toContain(`job ${interrupted!.jobId}: promoted after 2 attempts of 3`);

    const once = await booty(['demo', '--scenario', 'refine', '--dir', dir, '--json']);
    expect(lastJson(once.stdout)).toMatchObject({
      jobId: interrupted!.jobId,
      finalState: 'promoted',
      attempts: 2,
      comments: 1,
    });
    expect(lastJson(once.stdout).pullRequest).toMatchObject({ number: 2, draft: false });

    const wrong = await booty(['demo', '--scenario', 'pass', '--dir', dir]);
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('holds the "refine" scenario');
    // Four demo processes, one after another: on a loaded two-core machine each may take 15 s.
  }, 150_000);

  it('refuses an unknown scenario in one line', async () => {
    const r = await booty(['demo', '--scenario', 'maybe']);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toBe(
      `booty demo: --scenario must be one of pass, refine, exhausted, review, ci-red, mention, question, person-pr, not "maybe"; see \`node ${path.relative(process.cwd(), bootyBin())} demo --help\` (BOOTY_E_USAGE)`,
    );
  });
});
