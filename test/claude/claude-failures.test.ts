import { afterEach, describe, expect, it } from 'vitest';
import { type AnthropicSimulator, faults } from '../../sim/anthropic/anthropic-simulator.js';
import { toFailure } from '../../src/engine/effect.js';
import { BootyError } from '../../src/errors.js';
import { effectInput, type JobContext } from '../../src/machines/job-context.js';
import { analysis, attempt, claudeOverSimulator, job, makeRepo, signal } from './claude-fixtures.js';

let sim: AnthropicSimulator | undefined;
afterEach(async () => {
  await sim?.close();
  sim = undefined;
});

const valid = {
  explanation: 'Add subtract.',
  changes: [{ path: 'src/subtract.js', content: 'export const subtract = (a, b) => a - b;\n' }],
  deletePaths: [],
};

async function failure(run: Promise<unknown>): Promise<BootyError> {
  const err = await run.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(err instanceof BootyError)) throw new Error(`expected a BootyError, got ${String(err)}`);
  return err;
}

const statuses = (s: AnthropicSimulator) => s.messages().map((r) => r.status);

describe('claude steps when the answer or the API fails', () => {
  it('repairs a schema-breaking answer with one turn quoting the validation error, on the same cached prefix', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          { answer: { explanation: 'x', changes: [{ path: '../outside.js', content: 42 }] } },
          { answer: valid },
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = job({ baseSha, analysis, attempt: 1 });

    const out = await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

    expect(out.changes).toEqual(valid.changes);
    const [bad, repair] = sim.messages();
    expect(repair!.body.messages).toHaveLength(3);
    expect(repair!.body.messages[0]).toEqual(bad!.body.messages[0]);
    const [, said, told] = repair!.body.messages;
    const toolUse = bad!.response.content[0];
    expect(said).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: toolUse.id, name: 'submit_changes', input: toolUse.input }],
    });
    expect(told.role).toBe('user');
    expect(told.content).toHaveLength(1);
    expect(told.content[0]).toMatchObject({ type: 'tool_result', tool_use_id: toolUse.id, is_error: true });
    const quoted: string = told.content[0].content;
    expect(quoted).toContain('Your submit_changes answer was rejected:');
    expect(quoted).toContain('→ at changes[0].path');
    expect(quoted).toContain('Invalid input: expected string, received number\n  → at changes[0].content');
    expect(quoted).toContain('→ at deletePaths');
    expect(repair!.response.usage.cache_read_input_tokens).toBe(
      bad!.response.usage.cache_creation_input_tokens,
    );
    // Both calls are paid for.
    expect(out.usage.outputTokens).toBe(
      bad!.response.usage.output_tokens + repair!.response.usage.output_tokens,
    );
  });

  it('spends the attempt with no change, saying why, when the repaired answer is still invalid', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          { text: 'Sure! Here is the code: ...' },
          { answer: { ...valid, changes: [], deletePaths: [] } },
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j = job({ baseSha, analysis, attempt: 1 });

    const out = await started.effects.generate(effectInput(j, 'generate'), { signal: signal() });

    // Nothing to apply: the attempt is classed invalid-model-output and the next one reads why.
    expect(out.changes).toEqual([]);
    expect(out.explanation).toBe(
      "booty did not apply this answer: Claude's generate answer is still invalid after one repair turn: ✖ the answer changes no file",
    );
    // Both calls are paid for.
    const [first, second] = sim.messages();
    expect(out.usage.outputTokens).toBe(
      first!.response.usage.output_tokens + second!.response.usage.output_tokens,
    );
    // The text-only answer was repaired with a plain user turn (there was no tool_use to answer).
    const repair = sim.messages()[1]!;
    expect(repair.body.messages[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'text', text: 'Sure! Here is the code: ...' }],
    });
    expect(repair.body.messages[2].content[0].text).toContain(
      '- the answer did not call submit_changes (stop_reason end_turn)',
    );
    expect(statuses(sim)).toEqual([200, 200]);
  });

  it('sends back a refinement that skips or deletes tests, and accepts the repaired one', async () => {
    const { dir, baseSha } = makeRepo();
    const skipping = "import { test } from 'node:test';\ntest.skip('op1 adds', () => {});\n";
    const started = await claudeOverSimulator(
      {
        script: [
          {
            answer: {
              explanation: 'Skip the failing test.',
              changes: [{ path: 'test/calculator.test.js', content: skipping }],
              deletePaths: ['test/subtract.test.js'],
            },
          },
          { answer: valid },
        ],
      },
      { repoDir: dir },
    );
    sim = started.simulator;
    const j: JobContext = {
      ...job({ baseSha, analysis, attempt: 2 }),
      changes: [{ path: 'test/subtract.test.js', content: "test('subtract', () => {});\n" }],
      attempts: [attempt(1, 'first try', ['test/subtract.test.js'], 'not ok')],
    };

    const out = await started.effects.refine(effectInput(j, 'refine'), { signal: signal() });

    expect(out.explanation).toBe('Add subtract.');
    const quoted: string = sim.messages()[1]!.body.messages[2].content[0].content;
    expect(quoted).toContain(
      '- test/subtract.test.js: deletes a test file; fix the test or the code instead',
    );
    expect(quoted).toContain(
      '- test/calculator.test.js: adds 1 skip/only/todo marker(s); tests must run, not be skipped',
    );
  });

  it('retries a 529 through the SDK and then succeeds', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [faults.overloaded(1), { answer: analysis }] },
      { repoDir: dir },
    );
    sim = started.simulator;

    const out = await started.effects.analyze(effectInput(job({ baseSha }), 'analyze'), { signal: signal() });

    expect(out.analysis).toEqual(analysis);
    expect(statuses(sim)).toEqual([529, 200]);
    expect(sim.messages()[0]!.response.error).toEqual({ type: 'overloaded_error', message: 'Overloaded' });
    expect(sim.messages()[1]!.headers['x-stainless-retry-count']).toBe('1');
  });

  it('hands a 429 that outlasts the SDK retries to the job backoff as a retryable failure', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [faults.rateLimited(1), faults.rateLimited(1), faults.rateLimited(1)] },
      { repoDir: dir },
    );
    sim = started.simulator;

    const err = await failure(
      started.effects.analyze(effectInput(job({ baseSha }), 'analyze'), { signal: signal() }),
    );

    expect(statuses(sim)).toEqual([429, 429, 429]);
    expect(err.code).toBe('BOOTY_E_CLAUDE_TRANSIENT');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain(
      'Claude is unavailable for now (429): rate_limit_error: Number of request tokens has exceeded your per-minute rate limit',
    );
    expect(toFailure('analyze', err, 7)).toMatchObject({ code: 'BOOTY_E_CLAUDE_TRANSIENT', retryable: true });
  });

  it('fails a 401 at once with the API message', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      { script: [{ answer: analysis }] },
      { repoDir: dir, apiKey: 'sk-wrong' },
    );
    sim = started.simulator;

    const err = await failure(
      started.effects.analyze(effectInput(job({ baseSha }), 'analyze'), { signal: signal() }),
    );

    expect(err.code).toBe('BOOTY_E_CLAUDE_AUTH');
    expect(err.retryable).toBe(false);
    expect(err.message).toMatch(
      /^Claude refused the credentials \(401\): authentication_error: invalid x-api-key \(request-id req_\w+\); check ANTHROPIC_API_KEY$/,
    );
    expect(statuses(sim)).toEqual([401]);
    expect(sim.pending()).toBe(1);
  });

  it('fails a 400 with the API message, and makes an unreadable body or a timeout retryable', async () => {
    const { dir, baseSha } = makeRepo();
    const started = await claudeOverSimulator(
      {
        script: [
          { error: 400, message: 'messages.0.content.1: text content blocks must be non-empty' },
          faults.invalidJson(),
          { answer: analysis, delayMs: 2_000 },
        ],
      },
      { repoDir: dir, maxRetries: 0, timeoutMs: 300 },
    );
    sim = started.simulator;
    const input = effectInput(job({ baseSha }), 'analyze');
    const run = () => failure(started.effects.analyze(input, { signal: signal() }));

    const rejected = await run();
    expect(rejected.code).toBe('BOOTY_E_CLAUDE_REQUEST');
    expect(rejected.retryable).toBe(false);
    expect(rejected.message).toContain(
      '(400): invalid_request_error: messages.0.content.1: text content blocks must be non-empty',
    );

    const unreadable = await run();
    expect(unreadable.code).toBe('BOOTY_E_CLAUDE_TRANSIENT');
    expect(unreadable.params.status).toBe('unreadable');

    const slow = await run();
    expect(slow.code).toBe('BOOTY_E_CLAUDE_TRANSIENT');
    expect(slow.params.status).toBe('timeout');
  });
});
