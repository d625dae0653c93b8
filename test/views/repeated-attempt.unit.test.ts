import { describe, expect, it } from 'vitest';
import type { Timeline } from '../../src/engine/timeline.js';
import type { DomainEvent } from '../../src/events/catalogue.js';
import { foldJob } from '../../src/machines/fold.js';
import { renderJobView } from '../../src/views/job-view.js';
import { attemptsTable } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { ok, requested, succeeded } from '../machines/decider/decider.js';
import { usage } from '../support/scripted-effects.js';

// #31: an answer that would leave the code as an earlier attempt left it is not applied or tested,
// and every place that lists the attempts says so in the same words.

const fold = (log: DomainEvent[]) => foldJob(log.map(({ type, ...data }) => ({ type, data })));

const NOTE =
  'booty did not apply this answer: this answer leaves the code exactly as attempt 1 left it, and attempt 1 did not pass: running the same tests again cannot help. Make a different change\n\nSame again.';

/** Attempt 1 failed; attempt 2's answer repeated it, so nothing was applied (as the effects record it). */
const repeatedLog = (repeated: { repeated?: number }) => [
  requested(),
  ok.prepared(3),
  ok.baseline(),
  ok.analyzed(),
  ok.generated(1),
  ok.applied(1),
  ok.tests(false, 1),
  succeeded('refine', { changes: [], explanation: NOTE, usage: usage(100), ...repeated }, 2),
  succeeded('apply', { applied: [], rejected: [], addedTests: [], failureClass: 'invalid-model-output' }, 2),
];

const SAID = 'the model repeated attempt 1: not tested again';

describe('an attempt whose answer repeated an earlier one', () => {
  const job = fold(repeatedLog({ repeated: 1 }));

  it('is recorded from the refine step, and the loop goes on', () => {
    expect(job.value).toBe('refining');
    expect(job.context.attempts.map((a) => [a.n, a.repeated ?? null, a.test === null])).toEqual([
      [1, null, false],
      [2, 1, true],
    ]);
  });

  it('reads "the model repeated attempt N: not tested again" in the progress comment', () => {
    const text = renderProgress(job);
    expect(text).toContain(`\n\n**Attempt 2 of 3:** ${SAID}\n\n`);
    expect(text).not.toContain('nothing applied');
  });

  it('reads the same in the pull request body and the job view', () => {
    expect(attemptsTable(job.context).split('\n').at(-1)).toBe(`| 2 | 0 | ${SAID} |  |`);
    const timeline: Timeline = {
      jobId: 'j',
      repo: 'o/r',
      issue: 1,
      verified: true,
      divergence: null,
      tampered: null,
      finalState: String(job.value),
      entries: [],
      snapshot: job,
    };
    expect(renderJobView(timeline)).toContain(`<td class="untested">${SAID}</td>`);
  });

  it('in a log from before the field, reads as it did', () => {
    const old = fold(repeatedLog({}));
    expect(old.context.attempts[1]!.repeated).toBeUndefined();
    expect(renderProgress(old)).not.toContain('repeated');
    expect(attemptsTable(old.context).split('\n').at(-1)).toBe('| 2 | 0 | nothing applied |  |');
  });
});
