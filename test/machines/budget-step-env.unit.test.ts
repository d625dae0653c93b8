import { describe, expect, it } from 'vitest';
import { jobSettingsFrom, loadEnv } from '../../src/env.js';
import { JobSettings } from '../../src/events/job-events.js';

// BOOTY_BUDGET_STEP reaches a job as its settings' budgetStep, the tokens one `@booty continue`
// adds; a value that is not a positive whole number stops start-up with the variable named.

describe('BOOTY_BUDGET_STEP', () => {
  it('is stamped on every new job as settings.budgetStep; unset, it is null (the budget again)', () => {
    const settings = (env: Record<string, string>) => JobSettings.parse(jobSettingsFrom(loadEnv(env)));
    expect(settings({ BOOTY_MAX_TOKENS_PER_JOB: '50000', BOOTY_BUDGET_STEP: '20000' })).toMatchObject({
      maxTokens: 50_000,
      budgetStep: 20_000,
    });
    expect(settings({ BOOTY_MAX_TOKENS_PER_JOB: '50000' }).budgetStep).toBeNull();
  });

  it.each(['0', '-5', '1.5', 'lots'])('refuses %s, naming the variable', (value) => {
    expect(() => loadEnv({ BOOTY_BUDGET_STEP: value })).toThrow(
      /^environment variable BOOTY_BUDGET_STEP is invalid: /,
    );
  });
});
