import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AnthropicSimulator, startAnthropicSimulator } from '../../sim/anthropic/anthropic-simulator.js';
import { main } from '../../src/cli/main.js';
import { CASSETTE_FILE } from '../../src/eval/cassette.js';
import type { EvalReport } from '../../src/eval/eval-report.js';
import { tempDir } from '../support/job-harness.js';
import { standInModel } from './stand-in-model.js';

// A run with "the real API" (the Anthropic simulator playing a fallible model, behind
// ANTHROPIC_BASE_URL with a key) recorded to a cassette, then replayed with no API at all: the
// per-task results must be the same bytes. A cassette with one request changed by a byte fails the
// replay, naming the request. The two replays, each in a directory of its own, go side by side.

const TASKS = path.resolve('test/eval/fixtures/pycalc-tasks.jsonl');

async function evalCli(args: string[], env: NodeJS.ProcessEnv) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await main(['eval', TASKS, '--json', '--concurrency', '3', ...args], {
    out: (t) => out.push(t),
    err: (t) => err.push(t),
    env,
  });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

let api: AnthropicSimulator;
const cassette = tempDir('booty-eval-cassette-');
const recordedDir = tempDir('booty-eval-recorded-');
let recorded: Awaited<ReturnType<typeof evalCli>>;

beforeAll(async () => {
  api = await startAnthropicSimulator({ responder: standInModel, apiKey: 'sk-ant-test-key' });
  recorded = await evalCli(['--record', cassette, '--dir', recordedDir], {
    ANTHROPIC_API_KEY: 'sk-ant-test-key',
    ANTHROPIC_BASE_URL: api.url,
  });
  await api.close();
}, 240_000);

afterAll(async () => {
  await api?.close();
});

describe.concurrent('booty eval --record and --replay', () => {
  it('records a run against the API: a false promotion, a refinement and a fix, each exchange in the cassette', () => {
    expect(recorded.err).not.toMatch(/BOOTY_E_/);
    expect(recorded.code).toBe(0);
    const report = JSON.parse(recorded.out) as EvalReport;
    const by = Object.fromEntries(report.results.map((r) => [r.id, r]));
    expect(by['pycalc-clamp']).toMatchObject({ resolved: false, promoted: true, gate: 'false-promotion' });
    expect(by['pycalc-clamp']!.hidden.failToPass).toEqual({
      'tests/test_core.py::test_clamp_high': 'failed',
    });
    expect(by['pycalc-percent']).toMatchObject({ resolved: true, promoted: true, attempts: 2 });
    expect(by['pycalc-hours']).toMatchObject({ resolved: true, promoted: true, attempts: 1 });
    expect(report.totals).toMatchObject({
      tasks: 3,
      resolved: 2,
      promoted: 3,
      falsePromotions: 1,
      missedPromotions: 0,
    });
    // Every request the API answered is in the cassette, the key nowhere.
    const lines = fs.readFileSync(path.join(cassette, CASSETTE_FILE), 'utf8').trim().split('\n');
    expect(lines).toHaveLength(api.requests.length);
    expect(lines.join('\n')).not.toContain('sk-ant-test-key');
    expect(api.requests.every((r) => r.status === 200)).toBe(true);
  });

  it('replays the cassette with no API to the same per-task results, byte for byte', async () => {
    const dir = tempDir('booty-eval-replayed-');
    const replayed = await evalCli(['--replay', cassette, '--dir', dir], {});
    expect(replayed.err).not.toMatch(/BOOTY_E_/);
    expect(replayed.code).toBe(0);
    const read = (d: string) => fs.readFileSync(path.join(d, 'report', 'results.json'), 'utf8');
    expect(read(dir)).toBe(read(recordedDir));
    expect(replayed.out).toBe(recorded.out);
  }, 240_000);

  it('fails a replay whose request differs from the recorded one by a byte, naming it', async () => {
    const changed = tempDir('booty-eval-changed-');
    const lines = fs.readFileSync(path.join(cassette, CASSETTE_FILE), 'utf8').split('\n');
    const i = lines.findIndex((l) => l.includes('percent_of() crashes when the whole is zero'));
    expect(i).toBeGreaterThanOrEqual(0);
    lines[i] = lines[i]!.replace('crashes when the whole', 'crashes when thE whole');
    fs.writeFileSync(path.join(changed, CASSETTE_FILE), lines.join('\n'));
    const replayed = await evalCli(['--replay', changed, '--dir', tempDir('booty-eval-miss-')], {});
    expect(replayed.code).toBe(1);
    expect(replayed.err).toContain('BOOTY_E_EVAL_CASSETTE_MISS');
    expect(replayed.err).toMatch(/recorded ".*thE whole.*", sent ".*the whole/);
  }, 240_000);
});
