import { describe, expect, it } from 'vitest';
import { machineJson, machineMermaid } from '../../src/machines/diagram.js';
import { cli } from '../support/cli.js';
import { recordedJob } from '../views/recorded-job.js';

describe('booty machine', () => {
  it('--mermaid prints the generated diagram; --json the definition', async () => {
    const mermaid = await cli(['machine', '--mermaid']);
    expect(mermaid).toEqual({ code: 0, out: machineMermaid(), err: '' });
    const json = await cli(['machine', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.out)).toEqual(machineJson());
  });

  it('--mermaid --job highlights where a recorded job went and where it ended', async () => {
    const job = await recordedJob({ tests: [false, true] });
    const { code, out } = await cli(['machine', '--mermaid', '--job', job.jobId, '--db', job.db]);
    expect(code).toBe(0);
    expect(out.startsWith(machineMermaid())).toBe(true);
    expect(out.split('\n').slice(-2)).toEqual([
      '  class preparing,baselining,analyzing,generating,applying,testing,refining,openingPr,promoting visited',
      '  class promoted current',
    ]);
  });

  it('prints a table of states and transitions by default', async () => {
    const { code, out } = await cli(['machine']);
    expect(code).toBe(0);
    expect(out.split('\n')[0]).toBe('machine job: 28 states, starts in preparing');
    expect(out).toMatch(/^testing\s+runTests\s+runTests done \[testsPassed\]\s+concluding$/m);
    expect(out).toMatch(/^\s+runTests done \[attemptsLeft\]\s+refining$/m);
    // Where the loop's end leads: a choice, left within the same event.
    expect(out).toMatch(/^concluding\s+\(choice\)\s+always \[inRound\]\s+answering$/m);
    expect(out).toMatch(/^\s+always \[hasChanges\]\s+openingPr$/m);
    expect(out).toMatch(/^promoting\s+promotePr\s+promotePr done \[madeReady\]\s+promoted$/m);
    // A job with its PR waits; the PR's end is final.
    expect(out).toMatch(/^prOpened\s+\(waits\)\s+CiCompleted \[ciForHead\]\s+checkingCi$/m);
    expect(out).toMatch(/^promoted\s+\(waits\)\s+CiCompleted \[ciForHead\]\s+checkingCi$/m);
    expect(out).toMatch(/^merged\s+\(final\)$/m);
    // A round of questions, and the end of a job that only answered.
    expect(out).toMatch(
      /^answeringQuestion\s+answerQuestion\s+answerQuestion done \[hasDraftPr\]\s+prOpened$/m,
    );
    expect(out).toMatch(/^answered\s+\(final\)$/m);
    expect(out).toContain(
      'in every state that is not final: JobCancelled -> cancelled; FeedbackReceived (stays);',
    );
    expect(out).toContain('PrClosed [merged] -> merged; PrClosed [else] -> closed');
  });

  it('refuses two outputs at once and --job without --mermaid', async () => {
    const both = await cli(['machine', '--json', '--mermaid']);
    expect(both.code).toBe(2);
    expect(both.err).toBe(
      'booty machine: --json and --mermaid are two outputs: pick one; see `booty machine --help` (BOOTY_E_USAGE)',
    );
    const job = await cli(['machine', '--job', 'x']);
    expect(job.code).toBe(2);
    expect(job.err).toContain('--job needs --mermaid');
    const help = await cli(['machine', '--help']);
    expect(help.out).toContain('Usage: booty machine [--json | --mermaid [--job ID [--db PATH]]]');
  });
});
