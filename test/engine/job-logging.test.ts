import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { jobLogObserver } from '../../src/engine/job-logging.js';
import { createLogger } from '../../src/log.js';
import { prettyLine } from '../../src/log-pretty.js';
import { harness } from '../support/job-harness.js';

// The process log tells a job's story on its own: a failed step's line names the error.

function captured() {
  const lines: Record<string, unknown>[] = [];
  const destination = new Writable({
    write(chunk, _enc, done) {
      for (const l of String(chunk).trim().split('\n')) lines.push(JSON.parse(l));
      done();
    },
  });
  return { lines, log: createLogger({ destination }) };
}

describe('job event log lines', () => {
  it('a failed step logs its code and message at warn; the retry and the end log at info', async () => {
    const { lines, log } = captured();
    const h = harness({ outcomes: { runTests: ['transient'] } }, { observers: [jobLogObserver(log)] });
    const r = await h.request();
    if (r.outcome !== 'created') throw new Error(r.outcome);
    await h.supervisor.whenFinished(r.jobId);
    await h.store.close();
    const failed = lines.filter((l) => l.event === 'StepFailed');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({
      level: 40,
      jobId: r.jobId,
      step: 'runTests',
      code: 'BOOTY_E_EFFECT_TRANSIENT',
      error: 'effect runTests failed for now: simulated 503',
      retries: 1,
    });
    expect(failed[0]!.msg).toBe(`job event: ${failed[0]!.code}: ${failed[0]!.error}`);
    const last = lines.at(-1)!;
    expect(last).toMatchObject({ level: 30, state: 'promoted', outcome: expect.any(String) });
    expect(last).not.toHaveProperty('code');
  });
});

describe('pretty lines for a terminal', () => {
  it('shows time, level, message and the fields, redacted as in JSON', () => {
    const json = JSON.stringify({
      level: 40,
      time: Date.UTC(2026, 10, 23, 9, 5, 7, 12),
      pid: 1,
      hostname: 'h',
      name: 'booty',
      jobId: 'j1',
      code: 'BOOTY_E_X',
      error: 'no route to host',
      token: '[redacted]',
      msg: 'job event: BOOTY_E_X: no route to host',
    });
    expect(prettyLine(json)).toBe(
      '09:05:07.012 WARN  job event: BOOTY_E_X: no route to host jobId=j1 code=BOOTY_E_X error="no route to host" token=[redacted]',
    );
    expect(prettyLine('not json')).toBe('not json');
  });
});
