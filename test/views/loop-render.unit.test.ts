import { describe, expect, it } from 'vitest';
import type { DomainEvent } from '../../src/events/catalogue.js';
import { foldJob } from '../../src/machines/fold.js';
import { progressStages, renderProgress } from '../../src/views/progress-render.js';
import { ok, requested, requestedBeforeQualityProgress, succeeded } from '../machines/decider/decider.js';
import { lintRun, testRun } from '../support/scripted-effects.js';

// What a maintainer reads while the loop waits on them: the plan and its commands, the budget with
// what was spent and what `@booty continue` does, the trend across attempts, and who was asked.

const fold = (log: DomainEvent[]) => foldJob(log.map(({ type, ...data }) => ({ type, data })));

describe('the progress comment of the refine loop', () => {
  it('shows the plan and the commands while it waits for approval, the analysis held', () => {
    const job = fold([
      requested(),
      ok.prepared(3, { approval: 'plan' }),
      ok.baseline(),
      ok.analyzed(),
      succeeded('plan', { commentId: 901, url: 'http://x' }),
    ]);
    const text = renderProgress(job);
    expect(text).toContain('### ⏸️ booty planned the change and waits for a writer’s approval');
    expect(text).toContain('**Plan (feat):** Add add()');
    expect(text).toContain('- `src/index.js`');
    expect(text).toContain('`@booty revise <what to change>`');
    expect(progressStages(job).map((s) => s.mark)).toEqual([
      'done',
      'done',
      'held',
      'pending',
      'pending',
      'pending',
      'pending',
    ]);
  });

  it('says what the job spent at its budget, by how much continue raises it, and where it resumes', () => {
    const job = fold([
      requested({ maxTokens: 150, budgetStep: 5000 }),
      ok.prepared(),
      ok.baseline(),
      ok.analyzed(100),
      ok.generated(1, 100),
    ]);
    const text = renderProgress(job);
    expect(text).toContain('### ⏸️ booty reached this job’s token budget and waits for `@booty continue`');
    expect(text).toContain(
      "**Budget:** booty spent 200 tokens ($0.0000) of this job's 150, and stopped before applying attempt 1, already paid for.",
    );
    expect(text).toContain('raises the budget by 5,000 tokens and resumes there');
    expect(
      progressStages(job)
        .map((s) => s.mark)
        .slice(0, 4),
    ).toEqual(['done', 'done', 'done', 'held']);
  });

  it('shows the trend across attempts and who was asked for help', () => {
    const failing = (n: number, attempt: number) =>
      succeeded(
        'test',
        testRun(
          false,
          Array.from({ length: n }, (_, i) => `t > ${i}`),
        ),
        attempt,
      );
    const job = fold([
      requested(),
      ok.prepared(5, { stallAfter: 2, escalate: ['alice', 'acme/reviewers'] }),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      failing(3, 1),
      ok.refined(2),
      ok.applied(2),
      failing(2, 2),
      ok.refined(3),
      ok.applied(3),
      failing(2, 3),
      ok.refined(4),
      ok.applied(4),
      failing(2, 4),
      ok.pr(4),
      succeeded(
        'escalate',
        { on: 'pr', number: 7, users: ['alice'], teams: ['acme/reviewers'], refused: [] },
        4,
      ),
    ]);
    const text = renderProgress(job);
    expect(text).toContain('### ⏸️ booty opened a draft pull request; its attempts stopped improving');
    expect(text).toContain('| 2 | 1 | 2 | 2 | 2 | ↗ better |');
    expect(text).toContain('| 4 | 1 | 2 | 2 | 2 | → no better |');
    expect(text).toContain('booty stops after 2 in a row that are not');
    expect(text).toContain('**Escalated:** @alice, @acme/reviewers asked to review the draft.');
  });

  it('shows each attempt’s new quality findings in the trend, and the rule that counts them', () => {
    const linted = (first: DomainEvent) =>
      renderProgress(
        fold([
          first,
          ok.prepared(5, { stallAfter: 2 }),
          ok.baseline(),
          ok.analyzed(),
          ok.generated(1),
          ok.applied(1),
          ok.tests(false, 1),
          ok.refined(2),
          ok.applied(2),
          succeeded('test', lintRun(3), 2),
          ok.refined(3),
          ok.applied(3),
          succeeded('test', lintRun(1), 3),
        ]),
      );
    const text = linted(requested());
    expect(text).toContain(
      [
        '| attempt | passed | failing | new failures | new quality findings | lines changed | |',
        '|---|---|---|---|---|---|---|',
        '| 1 | 1 | 1 | 1 | 0 | 2 |  |',
        '| 2 | 1 | 0 | 0 | 3 | 2 | ↗ better |',
        '| 3 | 1 | 0 | 0 | 1 | 2 | ↗ better |',
        '',
        '<sub>An attempt is better when it has fewer new failures against the baseline, or as many and fewer failing tests, or as many of both and fewer new quality findings; booty stops after 2 in a row that are not.</sub>',
      ].join('\n'),
    );
    // A job requested before quality counted is shown as it was measured.
    const before = linted(requestedBeforeQualityProgress());
    expect(before).toContain('| attempt | passed | failing | new failures | lines changed | |');
    expect(before).toContain('| 3 | 1 | 0 | 0 | 2 | → no better |');
  });

  it('a parked job in a round says so in its PR section, with continue among the commands', () => {
    const job = fold([
      requested({ maxTokens: 1000, budgetStep: 500 }),
      ok.prepared(),
      ok.baseline(),
      ok.analyzed(),
      ok.generated(1),
      ok.applied(1),
      ok.tests(true, 1),
      ok.pr(1),
      ok.promoted(1),
      {
        type: 'CommandReceived',
        command: 'retry',
        place: 'pr-comment',
        author: 'maintainer',
        commentId: 5,
        deliveryId: 'd-r',
        at: 1,
      },
      ok.synced(2),
      ok.generated(2, 900),
    ]);
    const text = renderProgress(job);
    expect(text).toContain('**Now:** booty waits at its token budget for a writer’s `@booty continue`.');
    expect(text).toContain('`@booty continue` resumes a job waiting at its token budget');
  });
});
