import { describe, expect, it } from 'vitest';
import { editLog, eventCount, logEdits, parkedJob } from '../support/edited-logs.js';
import { until } from '../support/until.js';
import { deliver, labelPayload, startTestServer } from './gateway-harness.js';

// A delivery for a job whose log does not check out is answered 409 BOOTY_E_JOB_DAMAGED, over real
// HTTP to a listening gateway on the job's SQLite file, and nothing is appended: whether boot
// found the damage, or the log was edited while booty served.

/** GitHub's check_suite.completed on the parked job's PR head (PR 7, head b×40). */
const ciOnHead = {
  action: 'completed',
  check_suite: {
    head_sha: 'b'.repeat(40),
    head_branch: 'booty/issue-1-add-an-add-function',
    conclusion: 'success',
    pull_requests: [{ number: 7 }],
  },
  repository: { name: 'widgets', owner: { login: 'acme', type: 'Organization' } },
  sender: { login: 'github-actions[bot]', type: 'Bot' },
};
const unlabeled = () => labelPayload('unlabeled', { repo: 'acme/widgets', issue: 1 });

const damagedAnswer = (jobId: string) => ({
  error: {
    code: 'BOOTY_E_JOB_DAMAGED',
    message: `job ${jobId} is damaged: its log does not check out, so booty takes no event for it and wrote nothing; \`booty replay ${jobId} --verify\` names the row, and labeling the issue again starts a fresh job`,
  },
});

describe('POST /webhooks for a damaged job', () => {
  it.each(logEdits.map((e) => [e.name, e] as const))(
    'given %s, then boot marks it, and its deliveries are answered 409 BOOTY_E_JOB_DAMAGED and append nothing',
    async (_, edit) => {
      const { db, jobId } = await edit.job();
      editLog(db, jobId, edit.sql);
      const events = eventCount(db, jobId);
      const s = await startTestServer({ db });
      try {
        expect(s.resumed).toEqual([]);
        expect(await s.store.getJob(jobId)).toMatchObject({ state: 'damaged', final: true });
        const payloads: [string, unknown][] = [['issues', unlabeled()]];
        if (edit.job === parkedJob) payloads.push(['check_suite', ciOnHead]);
        for (const [event, payload] of payloads) {
          const r = await deliver(s.url, { event, payload });
          expect(r.status, event).toBe(409);
          expect(r.body).toEqual(damagedAnswer(jobId));
        }
      } finally {
        await s.close();
      }
      expect(eventCount(db, jobId)).toBe(events);
    },
  );

  it('given a parked job edited while booty serves, then CI on its PR is answered 409 and appends nothing, and the job is marked damaged', async () => {
    const { db, jobId } = await parkedJob();
    const s = await startTestServer({ db });
    try {
      expect(await s.store.getJob(jobId)).toMatchObject({ state: 'promoted', final: false });
      editLog(db, jobId, logEdits[2]!.sql);
      const events = eventCount(db, jobId);
      const r = await deliver(s.url, { event: 'check_suite', payload: ciOnHead });
      expect(r.status).toBe(409);
      expect(r.body).toEqual(damagedAnswer(jobId));
      expect(eventCount(db, jobId)).toBe(events);
      expect(await s.store.getJob(jobId)).toMatchObject({ state: 'damaged', final: true });
      await until('the damage logged', () =>
        s.lines.some(
          (l) => l.includes('BOOTY_E_LOG_TAMPERED') && l.includes('event 7 is not what was written'),
        ),
      );
    } finally {
      await s.close();
    }
  });

  it('given the parked job untouched, then the same CI wakes it (202) and is written', async () => {
    const { db, jobId } = await parkedJob();
    const events = eventCount(db, jobId);
    const s = await startTestServer({ db });
    try {
      const r = await deliver(s.url, { event: 'check_suite', payload: ciOnHead });
      expect(r).toMatchObject({ status: 202, body: { jobId, woke: true } });
      await until('the job parked again', async () => eventCount(db, jobId) === events + 2);
    } finally {
      await s.close();
    }
  });
});
