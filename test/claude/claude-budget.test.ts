import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { priceFor } from '../../src/claude/price-table.js';
import { toFailure } from '../../src/engine/effect.js';
import { Supervisor } from '../../src/engine/supervisor.js';
import { BootyError } from '../../src/errors.js';
import { Intake } from '../../src/intake/deliveries.js';
import { effectInput, usdCapOf } from '../../src/machines/job-context.js';
import { SqliteEventStore } from '../../src/store/sqlite/sqlite-event-store.js';
import { sampleRequest, tempDir } from '../support/job-harness.js';
import { scriptedEffects } from '../support/scripted-effects.js';
import { analysis, claudeOverSimulator, job, MODEL, makeRepo, signal } from './claude-fixtures.js';

let sim: AnthropicSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

/** A 36 KB file the analysis asks to read: generation needs far more input than analysis. */
const bigTable =
  `export const table = [\n${Array.from({ length: 1200 }, (_, i) => `  ${i * 7919},`).join('\n')}\n];\n`.repeat(
    3,
  );
const readsBigTable = { ...analysis, filesToRead: ['src/table.js'] };

const totalInput = (u: any) => u.input_tokens + u.cache_read_input_tokens + u.cache_creation_input_tokens;

async function rejection(run: Promise<unknown>): Promise<BootyError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof BootyError)) throw new Error(`expected a BootyError, got ${String(err)}`);
  return err;
}

/** A job under a dollar cap, having spent some already. */
const dollarJob = (baseSha: string, maxUsd: number, spentUsd: number) => {
  const j = job({ baseSha });
  return { ...j, settings: { ...j.settings, maxUsd }, usage: { ...j.usage, costUsd: spentUsd } };
};

describe('dollar budgets', () => {
  const price = priceFor(MODEL);
  const inputUsd = (tokens: number) => (tokens * price.inputPerMTok) / 1e6;

  it('refuses a call the job cannot pay for (its counted input and 1,024 output tokens), before sending it', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator({ script: [{ answer: analysis }] }, { repoDir: dir });
    sim = started.simulator;
    const err = await rejection(
      started.effects.analyze(effectInput(dollarJob(baseSha, 0.05, 0.04), 'analyze'), { signal: signal() }),
    );
    const counted = sim.requests[0]!.response.input_tokens;
    expect(err.code).toBe('BOOTY_E_BUDGET_EXCEEDED');
    expect(err.params).toEqual({
      unit: 'usd',
      max: 0.05,
      spent: '0.0400',
      needed: (Math.ceil((inputUsd(counted) + (1024 * price.outputPerMTok) / 1e6) * 1e4) / 1e4).toFixed(4),
    });
    expect(err.message).toMatch(/^the job's budget of \$0\.05 would be exceeded \(spent \$0\.0400, /);
    expect(sim.messages()).toEqual([]);
  });

  it('lowers max_tokens to the output that what is left of the cap buys', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator({ script: [{ answer: analysis }] }, { repoDir: dir });
    sim = started.simulator;
    await started.effects.analyze(effectInput(dollarJob(baseSha, 0.1, 0.02), 'analyze'), {
      signal: signal(),
    });
    const counted = sim.requests[0]!.response.input_tokens;
    const left = 0.1 - 0.02 - inputUsd(counted);
    expect(sim.messages()[0]!.body.max_tokens).toBe(Math.floor((left * 1e6) / price.outputPerMTok));
  });

  it('an answer cut off at the max_tokens the dollars left fails as over the dollar budget, carrying what it spent', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [{ answer: analysis, outputTokens: 100_000 }] },
      { repoDir: dir },
    );
    sim = started.simulator;
    const err = await rejection(
      started.effects.analyze(effectInput(dollarJob(baseSha, 0.1, 0.02), 'analyze'), { signal: signal() }),
    );
    expect(err.code).toBe('BOOTY_E_BUDGET_EXCEEDED');
    expect(err.params.unit).toBe('usd');
    expect(toFailure('analyze', err, 1).usage!.costUsd).toBeGreaterThan(0);
  });

  it("booty.yml's maxUsd lowers the operator's cap, and never raises it", () => {
    const settings = { ...job().settings, maxUsd: 0.05 };
    const config = (maxUsd?: number) => ({ ...job().config!, ...(maxUsd ? { maxUsd } : {}) });
    expect(usdCapOf({ settings, config: config(0.02) })).toBe(0.02);
    expect(usdCapOf({ settings, config: config(5) })).toBe(0.05);
    expect(usdCapOf({ settings: { ...settings, maxUsd: null }, config: config(0.02) })).toBe(0.02);
    expect(usdCapOf({ settings: { ...settings, usdAdded: 0.1 }, config: config(0.02) })).toBe(0.12);
    expect(usdCapOf({ settings: { ...settings, maxUsd: null }, config: null })).toBeNull();
  });
});

describe('token budgets', () => {
  it('refuses a call that would take the job over BOOTY_MAX_TOKENS_PER_JOB, before sending it', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator({ script: [{ answer: analysis }] }, { repoDir: dir });
    sim = started.simulator;
    const j = { ...job({ baseSha, maxTokens: 2_000 }), usage: { ...job().usage, inputTokens: 500 } };

    const err = await rejection(started.effects.analyze(effectInput(j, 'analyze'), { signal: signal() }));

    const counted = sim.requests[0]!.response.input_tokens;
    expect(err.code).toBe('BOOTY_E_BUDGET_EXCEEDED');
    expect(err.retryable).toBe(false);
    expect(err.params).toEqual({ max: 2_000, spent: 500, needed: counted + 1024 });
    expect(sim.messages()).toEqual([]);
  });

  it('lowers max_tokens to what is left of the job budget', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator({ script: [{ answer: analysis }] }, { repoDir: dir });
    sim = started.simulator;
    const j = { ...job({ baseSha, maxTokens: 50_000 }), usage: { ...job().usage, outputTokens: 45_000 } };

    await started.effects.analyze(effectInput(j, 'analyze'), { signal: signal() });

    const counted = sim.requests[0]!.response.input_tokens;
    expect(sim.messages()[0]!.body.max_tokens).toBe(5_000 - counted);
  });

  it('an answer cut off at the max_tokens the budget left fails as over budget, carrying the tokens it spent', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [{ answer: analysis, outputTokens: 100_000 }] },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = { ...job({ baseSha, maxTokens: 50_000 }), usage: { ...job().usage, outputTokens: 45_000 } };

    const err = await rejection(started.effects.analyze(effectInput(j, 'analyze'), { signal: signal() }));

    expect(err.code).toBe('BOOTY_E_BUDGET_EXCEEDED');
    const u = sim.messages()[0]!.response.usage;
    expect(u.output_tokens).toBe(sim.messages()[0]!.body.max_tokens);
    // The failure the log records keeps them, so the job's budget counts the call.
    expect(toFailure('analyze', err, 1).usage).toMatchObject({
      inputTokens: u.input_tokens,
      outputTokens: u.output_tokens,
      cacheReadTokens: u.cache_read_input_tokens,
      cacheWriteTokens: u.cache_creation_input_tokens,
    });
  });

  it('parks the job in budgetExhausted, before any generation request, when generation would overrun the budget', async () => {
    const { dir, baseSha } = makeRepo({ 'src/table.js': bigTable });
    const started = await claudeOverSimulator(
      { script: [{ answer: readsBigTable }] },
      { repoDir: dir, ref: baseSha, maxInputTokens: 40_000 },
    );
    sim = started.simulator;
    const scripted = scriptedEffects();
    const supervisor = new Supervisor({
      store: new SqliteEventStore(path.join(tempDir(), 'booty.db')),
      effects: { ...scripted.impls, ...started.effects },
      concurrency: 1,
      settings: { retryBaseMs: 1, retryCapMs: 5, maxTokens: 8_000 },
    });
    const intake = new Intake(supervisor);
    const submitted = await intake.submit(
      { id: 'delivery-budget', event: 'issues', action: 'labeled' },
      { kind: 'request', request: sampleRequest(1) },
    );
    if (submitted.outcome !== 'created') throw new Error(submitted.outcome);

    const snap = await supervisor.whenFinished(submitted.jobId);
    await supervisor.shutdown();

    // It waits for a writer's `@booty continue` (the machine's budget state), with why on record.
    expect(snap.value).toBe('budgetExhausted');
    expect(snap.context.analysis).toEqual(readsBigTable);
    expect(snap.context.error).toMatchObject({ step: 'generate', code: 'BOOTY_E_BUDGET_EXCEEDED' });
    expect(snap.context.error?.message).toContain("the job's token budget of 8000 would be exceeded");
    // Only the analysis was sent; generation was refused after counting its ~9k-token request.
    expect(sim.messages()).toHaveLength(1);
    const counts = sim.requests
      .filter((r) => r.path.endsWith('count_tokens'))
      .map((r) => r.response.input_tokens);
    expect(counts).toHaveLength(2);
    expect(counts[1]).toBeGreaterThan(8_000);
    expect(snap.context.usage.inputTokens + snap.context.usage.cacheWriteTokens).toBe(counts[0]);
  });

  it('never sends more than BOOTY_MAX_INPUT_TOKENS, counted by the API or estimated', async () => {
    const { dir, baseSha } = makeRepo({ 'src/table.js': bigTable });
    // Room for the system prompt and the tree, not for the big file.
    const max = 3_500;
    for (const countTokens of [true, false]) {
      const started = await claudeOverSimulator(
        {
          countTokens,
          script: [
            { answer: readsBigTable },
            { answer: { explanation: 'e', changes: [{ path: 'a.js', content: 'x' }], deletePaths: [] } },
          ],
        },
        { repoDir: dir, maxInputTokens: max },
      );
      sim = started.simulator;
      const j = job({ baseSha, analysis: readsBigTable, attempt: 1 });

      await started.effects.analyze(effectInput(j, 'analyze'), { signal: signal() });
      await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

      const sent = sim.messages();
      expect(sent.map((r) => r.status)).toEqual([200, 200]);
      for (const r of sent) expect(totalInput(r.response.usage)).toBeLessThanOrEqual(max);
      // The big file is the first the analysis names, and it is the one left out.
      expect(sent[1]!.body.system[1].text).not.toContain('<file path="src/table.js">');
      expect(sent[1]!.body.system[1].text).toContain('src/table.js');
      await sim.close();
    }
  });

  it('fails with BOOTY_E_CLAUDE_CONTEXT when even the untrimmable parts do not fit', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [{ answer: analysis }] },
      { repoDir: dir, maxInputTokens: 1_000 },
    );
    sim = started.simulator;
    const j = job({ baseSha, body: 'A long report. '.repeat(400) });

    const err = await rejection(started.effects.analyze(effectInput(j, 'analyze'), { signal: signal() }));

    expect(err.code).toBe('BOOTY_E_CLAUDE_CONTEXT');
    expect(err.params.max).toBe(1_000);
    expect(err.params.needed).toBe(sim.requests.at(-1)!.response.input_tokens);
    expect(sim.messages()).toEqual([]);
  });
});
