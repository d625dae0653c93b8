import { describe, expect, it } from 'vitest';
import { failingStepLog, LOG_CHARS } from '../../../src/forges/github/ci-log.js';

// A job log as GitHub Actions writes it: a byte-order mark, a timestamp on every line, the
// runner's set-up groups, each step's `##[group]Run …` header (command, shell, env) and its
// output after the header's `##[endgroup]`, then the post-job steps.

const stamped = (lines: string[]) =>
  `\uFEFF${lines.map((l, i) => `2026-01-02T03:04:${String(i % 60).padStart(2, '0')}.1234567Z ${l}`).join('\n')}\n`;

const runnerSetUp = [
  "Current runner version: '2.321.0'",
  '##[group]Operating System',
  'Ubuntu',
  '##[endgroup]',
  'Complete job name: test',
];
const checkout = [
  '##[group]Run actions/checkout@v4',
  'with:',
  '  repository: acme/widgets',
  '##[endgroup]',
  'Syncing repository: acme/widgets',
];
const postSteps = [
  'Post job cleanup.',
  '[command]/usr/bin/git version',
  'git version 2.47.1',
  'Cleaning up orphan processes',
];

describe('the failing step of an Actions log', () => {
  it('keeps the failing step: its title and output, workflow commands in words, no timestamps, no colours', () => {
    const log = stamped([
      ...runnerSetUp,
      ...checkout,
      '##[group]Run npm ci',
      'npm ci',
      'shell: /usr/bin/bash -e {0}',
      '##[endgroup]',
      'added 212 packages in 3s',
      '##[group]Run npm test',
      'npm test',
      'shell: /usr/bin/bash -e {0}',
      'env:',
      '  CI: true',
      '##[endgroup]',
      '> widgets@1.0.0 test',
      '##[group]vitest',
      '\u001b[31m FAIL \u001b[39m test/add.test.js > adds',
      '##[endgroup]',
      '##[warning]Node 16 is deprecated',
      'AssertionError: expected 3 to be 4',
      '##[error]Process completed with exit code 1.',
      ...postSteps,
    ]);

    expect(failingStepLog(log)).toBe(
      [
        'Run npm test',
        '> widgets@1.0.0 test',
        'vitest',
        ' FAIL  test/add.test.js > adds',
        'Warning: Node 16 is deprecated',
        'AssertionError: expected 3 to be 4',
        'Error: Process completed with exit code 1.',
      ].join('\n'),
    );
  });

  it('keeps the last 60 lines of a long step and says that some were cut', () => {
    const output = Array.from({ length: 200 }, (_, i) => `line ${i + 1}`);
    const log = stamped([
      ...checkout,
      '##[group]Run make',
      'make',
      '##[endgroup]',
      ...output,
      '##[error]boom',
    ]);
    expect(failingStepLog(log).split('\n')).toEqual(['Run make', '…', ...output.slice(-59), 'Error: boom']);
  });

  it(`keeps the tail under ${LOG_CHARS} characters when the lines are long`, () => {
    const output = Array.from({ length: 50 }, (_, i) => `${i}`.padEnd(300, '.'));
    const text = failingStepLog(stamped(['##[group]Run make', '##[endgroup]', ...output, '##[error]boom']));
    expect(text.length).toBeLessThanOrEqual(LOG_CHARS);
    const lines = text.split('\n');
    expect(lines.slice(0, 2)).toEqual(['Run make', '…']);
    expect(lines.at(-1)).toBe('Error: boom');
    expect(lines.at(-2)).toBe(output.at(-1));
  });

  it('falls back to the end of the whole log when no step reports an error (a cancelled job)', () => {
    const log = stamped([
      ...runnerSetUp,
      ...checkout,
      '##[group]Run npm test',
      '##[endgroup]',
      'waiting…',
      ...postSteps,
    ]);
    expect(failingStepLog(log).split('\n')).toEqual([
      "Current runner version: '2.321.0'",
      'Operating System',
      'Ubuntu',
      'Complete job name: test',
      'Run actions/checkout@v4',
      'with:',
      '  repository: acme/widgets',
      'Syncing repository: acme/widgets',
      'Run npm test',
      'waiting…',
      ...postSteps.map((l) => l.replace('[command]', '')),
    ]);
  });
});
