import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { readTimeline } from '../../src/engine/timeline.js';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import type { EventStore } from '../../src/store/event-store.js';
import type { StoredEvent } from '../../src/store/records.js';
import { renderJobView } from '../../src/views/job-view.js';
import { escalationComment } from '../../src/views/loop-render.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';

// The record people read, pinned whole for the jobs that go past the first loop: the progress
// comment and the PR body, rendered by the real views from real logs. The logs in golden/logs/
// were recorded once from the end-to-end tests (test/e2e/conversation.test.ts: the review round
// and the merge; conversation-ci.test.ts: the flaky check and the CI round;
// conversation-questions.test.ts: the question) and from `booty demo --scenario exhausted`, by
// copying each job's rows out of its booty.db. They are read through the catalogue's upcasters, as
// any stored log is. UPDATE_GOLDEN=1 npx vitest run test/views/record-golden.unit.test.ts rewrites
// the golden files.

const GOLDEN = fileURLToPath(new URL('./golden', import.meta.url));
const VIEW = 'https://booty.example.com';

const rowsOf = (name: string): StoredEvent[] =>
  JSON.parse(fs.readFileSync(path.join(GOLDEN, 'logs', `${name}.json`), 'utf8')).rows;

/** The review round's job, then merged: the PrClosed row the merge test recorded, appended to its stream. */
function mergedAfterRound(): StoredEvent[] {
  const rows = rowsOf('review-round');
  const last = rows.at(-1)!;
  const merge = rowsOf('merged').at(-1)!;
  expect(merge.type).toBe('PrClosed');
  return [
    ...rows,
    { ...merge, streamId: last.streamId, version: last.version + 1, position: last.position + 1 },
  ];
}

function render(rows: StoredEvent[]) {
  const snapshot = foldJob(rows);
  const { jobId, pr, issue } = snapshot.context;
  return {
    state: snapshot.value,
    comment: renderProgress(snapshot, { jobViewUrl: `${VIEW}/jobs/${jobId}/view` }),
    body: renderPrBody(jobView(snapshot.context)),
    // What booty would post if the job gave up now, to the reviewers booty.yml names.
    escalation: escalationComment({
      asked: ['alice'],
      where: pr ? `the draft pull request #${pr.number}` : 'this issue',
      progressUrl: `${issue.url}#issuecomment-1`,
    }),
    failing: failingIds(rows),
  };
}

/** Every test id a run in the log saw failing, and every failing CI check's name. */
function failingIds(rows: StoredEvent[]): Set<string> {
  const ids = new Set<string>();
  const walk = (x: unknown, key = ''): void => {
    if (Array.isArray(x)) {
      if (['failingTests', 'newFailures', 'addedTestsFailing', 'baselineFailures'].includes(key))
        for (const id of x) if (typeof id === 'string') ids.add(id);
      for (const item of x) walk(item);
    } else if (x && typeof x === 'object') {
      for (const [k, v] of Object.entries(x)) walk(v, k);
    }
  };
  for (const row of rows) walk(row.data);
  return ids;
}

/** The text against its golden file, byte for byte; UPDATE_GOLDEN=1 rewrites the file first. */
function matchesGolden(text: string, file: string) {
  const at = path.join(GOLDEN, file);
  if (process.env.UPDATE_GOLDEN === '1') fs.writeFileSync(at, `${text}\n`);
  expect(`${text}\n`).toBe(fs.readFileSync(at, 'utf8'));
}

/** What no record may say, whoever regenerates the files. */
function holdsTogether(text: string) {
  // An attempt is counted within its round: never "attempt 5 of 3".
  for (const [, n, max] of text.matchAll(/attempt (\d+)(?: of |\/)(\d+)/gi)) {
    expect(Number(n), text).toBeLessThanOrEqual(Number(max));
  }
  for (const line of text.split('\n')) {
    // A pass never sits beside a failure, nor a count beside its own contradiction.
    if (line.includes('✅')) expect(line).not.toMatch(/\b[1-9]\d* failing/);
    expect(line).not.toMatch(/[1-9]\d* tests? failed \(.*\b0 failed/);
  }
  expect(text.match(/\*\*Plan \(/g)?.length ?? 0).toBeLessThanOrEqual(1);
}

const cases: [string, () => StoredEvent[], string][] = [
  ['a review round', () => rowsOf('review-round'), 'promoted'],
  ['a CI round', () => rowsOf('ci-round'), 'promoted'],
  ['a question', () => rowsOf('question'), 'promoted'],
  ['a flaky re-run', () => rowsOf('flaky-rerun'), 'promoted'],
  ['an exhausted job with a repeated answer', () => rowsOf('exhausted-repeated'), 'prOpened'],
  ['a merged job', mergedAfterRound, 'merged'],
];

describe('the record of a job past its first loop', () => {
  it.each(cases)('%s: the progress comment and the PR body', (name, rows, state) => {
    const { state: reached, comment, body } = render(rows());
    expect(reached).toBe(state);
    const file = name.replace(/^an? /, '').replaceAll(' ', '-').toLowerCase();
    matchesGolden(comment, `record/${file}-comment.md`);
    matchesGolden(body, `record/${file}-pr-body.md`);
    holdsTogether(comment);
    holdsTogether(body);
  });

  it.each(cases)('%s: a failing test is named in one place only', (_, rows) => {
    const { comment, body, escalation, failing } = render(rows());
    for (const id of failing) {
      const places = Object.entries({ comment, escalation, body }).filter(([, t]) => t.includes(id));
      expect(places.length, `${id} in ${places.map(([where]) => where)}`).toBeLessThanOrEqual(1);
    }
  });

  it('asks for help without repeating why: it links the progress comment, which says it', () => {
    const { escalation, comment } = render(rowsOf('exhausted-repeated'));
    matchesGolden(escalation, 'record/exhausted-job-with-a-repeated-answer-escalation.md');
    expect(comment).toContain('The tests still fail after 3 of 3 attempts');
    expect(escalation).not.toContain('The tests still fail');
    expect(escalation).toContain("[booty's progress comment](");
  });

  it('names a round’s attempts by the round, in the comment and the body', () => {
    const { comment, body } = render(rowsOf('review-round'));
    expect(comment).toContain('**Round 1, attempt 1 of 3:** ✅ passed');
    expect(comment).toMatch(
      /- Round 1, for a review by @\S+: pushed `[0-9a-f]{7}` — Adds the case the reviewer asked for\./,
    );
    expect(body).toMatch(
      /## Rounds\n\n- Round 1, for a review by @\S+: pushed `[0-9a-f]{7}` — Adds the case the reviewer asked for\./,
    );
    expect(body).toContain('| round 1, 1 |');
  });

  it('keeps the rounds on record once the job ends merged', () => {
    const { comment } = render(mergedAfterRound());
    expect(comment).toMatch(/#### Rounds\n\n- Round 1, for a review by @\S+: pushed/);
    expect(comment).not.toContain('<summary>Commands</summary>');
  });

  it('says the model repeated an attempt, never that it is not tested yet', () => {
    const { comment, body } = render(rowsOf('exhausted-repeated'));
    expect(comment).toContain('**Attempt 2 of 3:** the model repeated attempt 1: not tested again');
    expect(body).toContain('| 3 | 0 | the model repeated attempt 1: not tested again |');
    expect(`${comment}\n${body}`).not.toContain('not tested yet');
  });

  it('tells what failed once, in the comment, and the body points there', () => {
    const { comment, body } = render(rowsOf('exhausted-repeated'));
    expect(comment).toContain('<summary>What failed in attempt 1:');
    expect(body).not.toContain('<details');
    expect(body).toContain("What each attempt's tests showed is in booty's progress comment on #1.");
  });

  it('the job view shows the same rounds, and names a round’s attempts by the round', async () => {
    const rows = rowsOf('review-round');
    const store = { readStream: async () => rows } as unknown as EventStore;
    const page = renderJobView(await readTimeline(store, rows[0]!.streamId));
    expect(page).toContain('<tr class="attempt"><td class="num">round 1, 1</td>');
    expect(page).toMatch(
      /<tr class="round"><td class="num">1<\/td><td>a review by @reviewer<\/td><td>pushed [0-9a-f]{7}<\/td><td>Adds the case the reviewer asked for\.<\/td><\/tr>/,
    );
  });
});
