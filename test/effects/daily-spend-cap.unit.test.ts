import { describe, expect, it } from 'vitest';
import { dailySpendCap } from '../../src/effects/daily-spend-cap.js';
import { createLogger } from '../../src/log.js';
import type { JobRecord } from '../../src/store/records.js';

// The per-day cap's gate alone: the UTC day of the supervisor's clock, the installation the job's
// request logged, when a held job is looked at again, and the issue told once.

const DAY = 86_400_000;
const NOON = Date.UTC(2026, 10, 28, 12);
const job = { jobId: 'j1', repo: 'o/r', issue: 7 } as JobRecord;

function gate(spent: number, options: { now?: () => number; installation?: number | null } = {}) {
  const asked: { since: number; installation: number | null }[] = [];
  const said: string[] = [];
  const cap = dailySpendCap({
    capUsd: 1,
    now: options.now ?? (() => NOON),
    recheckMs: 60_000,
    log: createLogger({ level: 'silent' }),
    say: async (_job, body) => void said.push(body),
    store: {
      spentSince: async (since, installation) => {
        asked.push({ since, installation });
        return spent;
      },
      readStream: async () => [
        { data: { installationId: options.installation === undefined ? 42 : options.installation } } as never,
      ],
    },
  });
  return { cap, asked, said };
}

describe('the per-day dollar cap', () => {
  it('lets a job start below the cap, reading the spend of its installation since 00:00 UTC', async () => {
    const { cap, asked, said } = gate(0.99);
    expect(await cap.hold(job)).toBeNull();
    expect(asked).toEqual([{ since: NOON - 12 * 3_600_000, installation: 42 }]);
    expect(said).toEqual([]);
  });

  it('holds a job at the cap, looks again within a minute, and tells the issue once', async () => {
    const { cap, said } = gate(1);
    expect(await cap.hold(job)).toEqual({ recheckAt: NOON + 60_000 });
    expect(await cap.hold(job)).toEqual({ recheckAt: NOON + 60_000 });
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('$1.0000 on the model today');
    expect(said[0]).toContain('it starts at 2026-11-29 00:00 UTC');
  });

  it('looks again at midnight when that comes before the minute is out', async () => {
    const late = Date.UTC(2026, 10, 28) + DAY - 10_000;
    const { cap } = gate(5, { now: () => late });
    expect(await cap.hold(job)).toEqual({ recheckAt: Date.UTC(2026, 10, 29) });
  });

  it('reads the spend of jobs with no installation as their own', async () => {
    const { cap, asked } = gate(0, { installation: null });
    await cap.hold(job);
    expect(asked[0]!.installation).toBeNull();
  });
});
