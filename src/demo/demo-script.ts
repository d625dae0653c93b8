import fs from 'node:fs';
import path from 'node:path';
import type { Responder, Turn } from '../../sim/anthropic/anthropic-simulator.js';
import { packageRoot } from '../package-root.js';

// What the scripted model says in each demo scenario. The turns are written for the sample
// repository's issue (examples/): the demo shows booty's machinery, not a model. The answer for a
// change is chosen by the attempt the request is for, read from the history it carries, so a
// resumed demo gets the same answer it would have got uninterrupted.

export const scenarios = [
  'pass',
  'refine',
  'exhausted',
  'review',
  'ci-red',
  'mention',
  'question',
  'person-pr',
] as const;
export type Scenario = (typeof scenarios)[number];

/** Scenarios that go on after the PR is up: a reviewer, or CI, wakes the waiting job. */
export const conversationScenarios: readonly Scenario[] = ['review', 'ci-red'];

/** Scenarios a writer's `@booty` starts, with no label: on the issue, or on a person's pull request. */
export const mentionScenarios: readonly Scenario[] = ['mention', 'question', 'person-pr'];

/** Which scripted change each attempt gets: the fixed one, or the one with a bug. */
const plans: Record<Scenario, ('fixed' | 'buggy')[]> = {
  pass: ['fixed'],
  refine: ['buggy', 'fixed'],
  exhausted: ['buggy', 'buggy', 'buggy'],
  review: ['fixed'],
  'ci-red': ['fixed'],
  mention: ['fixed'],
  question: [],
  'person-pr': [],
};

/** The examples/ folder of this package. */
export const examplesDir = path.join(packageRoot, 'examples');

const read = (...p: string[]) => fs.readFileSync(path.join(examplesDir, ...p), 'utf8');

export function sampleIssue(): { title: string; body: string } {
  const [title, ...body] = read('sample-issue.md').split('\n');
  return { title: title!.trim(), body: body.join('\n').trim() };
}

export interface FileChange {
  path: string;
  content: string;
}

export const TEST_FILE = 'test/parse-duration.test.js';

/**
 * The model's complete files for an attempt: the sample's src/duration.js with parseDuration added,
 * and its tests. The buggy variant makes the classic first mistake: it tries "m" before "ms", so
 * "250ms" reads as 250 minutes and a stray "s", and one of its own tests fails.
 */
export function changeAnswer(variant: 'fixed' | 'buggy') {
  const explanations = JSON.parse(read('demo-turns', 'explanations.json')) as Record<string, string>;
  let parse = read('demo-turns', 'parse-duration.js');
  if (variant === 'buggy') {
    parse = parse
      .replace(/^\/\/ "ms" comes first.*$/m, '// Each part is a number and a unit.')
      .replace('(ms|d|h|m|s)', '(d|h|m|s|ms)');
  }
  return {
    explanation: explanations[variant]!,
    changes: [
      { path: 'src/duration.js', content: `${read('sample-repo', 'src', 'duration.js')}\n${parse}` },
      { path: TEST_FILE, content: read('demo-turns', 'parse-duration.test.js') },
    ] as FileChange[],
    deletePaths: [] as string[],
  };
}

/**
 * The model's answer to a follow-up round, whole files on top of the branch: for red CI, the
 * bad-input test's one long line wrapped (CI's line-length check is the only failure); for a
 * reviewer, the case they asked for.
 */
function roundAnswer(kind: 'ci' | 'review') {
  const explanations = JSON.parse(read('demo-turns', 'explanations.json')) as Record<string, string>;
  const tests = read('demo-turns', 'parse-duration.test.js');
  const content =
    kind === 'ci'
      ? tests.replace(
          /^( *)assert\.throws\((.+?), (\(err\) => .+)\);$/m,
          (_, indent: string, call: string, check: string) =>
            `${indent}assert.throws(\n${indent}  ${call},\n${indent}  ${check},\n${indent});`,
        )
      : `${tests}\n${read('demo-turns', 'days-case.js')}`;
  return {
    explanation: explanations[kind === 'ci' ? 'ciFix' : 'reviewFix']!,
    changes: [{ path: TEST_FILE, content }] as FileChange[],
    deletePaths: [] as string[],
  };
}

export function demoResponder(scenario: Scenario): Responder {
  const analysis = JSON.parse(read('demo-turns', 'analysis.json'));
  const plan = plans[scenario];
  return (request): Turn | undefined => {
    if (request.toolName === 'submit_analysis') return { answer: analysis };
    if (request.toolName === 'submit_answer') return { answer: questionAnswer() };
    if (request.toolName !== 'submit_changes') return undefined;
    // A round's request says so, and carries CI's failure when CI asked for it.
    if (request.raw.includes('a follow-up round was asked for')) {
      return { answer: roundAnswer(request.raw.includes('CI failed on') ? 'ci' : 'review') };
    }
    // A refinement request lists every earlier attempt as "Attempt n: …".
    const attempt = new Set(request.raw.match(/Attempt \d+:/g) ?? []).size + 1;
    return { answer: changeAnswer(plan[Math.min(attempt, plan.length) - 1]!) };
  };
}

/** The model's answer to the `question` scenario's question, resting on the lines it names. */
function questionAnswer() {
  return {
    answer:
      'Durations are formatted by `formatDuration` in src/duration.js: it splits the milliseconds into days, hours, minutes and seconds, largest first, and joins the parts that are not zero. There is no parser yet: that is what this issue asks for.',
    references: [{ path: 'src/duration.js', line: 8, endLine: 19 }],
  };
}

export interface ExpectedEnd {
  state: 'promoted' | 'prOpened' | 'answered';
  attempts: number;
  /** Whether the PR is draft; null where no PR is expected. */
  draft: boolean | null;
  /** Each follow-up round, by what started it: a question's was answered, every other pushed a commit. */
  rounds: ('feedback' | 'ci' | 'question')[];
  /** Where the repository has CI: its state on the PR's head, and how many heads booty re-ran. */
  ci?: { state: 'passed'; reruns: number };
}

/** The end each scenario must reach for `booty demo` to exit 0. */
export function expectedEnd(scenario: Scenario, maxAttempts: number): ExpectedEnd {
  const ready = { state: 'promoted', draft: false } as const;
  const ends: Record<Scenario, ExpectedEnd> = {
    pass: { ...ready, attempts: 1, rounds: [] },
    refine: { ...ready, attempts: 2, rounds: [] },
    // Work that never passes is not a failed job: it waits with its draft PR.
    exhausted: { state: 'prOpened', draft: true, attempts: maxAttempts, rounds: [] },
    // The first attempt, then the round's: a reviewer's request answered with one commit.
    review: { ...ready, attempts: 2, rounds: ['feedback'] },
    // Red CI (re-run once, red again) fixed by a round; green CI on its commit made the PR ready.
    'ci-red': { ...ready, attempts: 2, rounds: ['ci'], ci: { state: 'passed', reruns: 1 } },
    // A writer's @booty on the unlabeled issue does what the label does.
    mention: { ...ready, attempts: 1, rounds: [] },
    // One answer, no commit, no PR: the job ends once it answered.
    question: { state: 'answered', draft: null, attempts: 0, rounds: ['question'] },
    // One round on the person's branch, its commit on top of theirs; their PR stays as they left it.
    'person-pr': { ...ready, attempts: 1, rounds: ['feedback'] },
  };
  return ends[scenario];
}
