import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type JobContext, mergeChanges } from '../../src/machines/job-context.js';
import { useScratch } from '../fixtures/workspace-scratch.js';
import { preparedJob } from './prepared-job.js';

// The job's HOME keeps only what the install made, for every install and test run of the job:
// settings, programs and files a test run wrote there are gone before the next install or run,
// and the install's own output stays.

const signal = new AbortController().signal;

useScratch();

/** Fails unless HOME holds none of what a test planted. */
const NOTHING_PLANTED =
  'test ! -e "$HOME/.npmrc" && test ! -e "$HOME/.config/pip/pip.conf" && test ! -e "$HOME/.local/bin/node" && test ! -e "$HOME/notes.txt"';
/** What a hostile test writes into HOME: package-manager settings, a program first on PATH, a note. */
const PLANT = [
  'echo "registry=http://evil.test/" > "$HOME/.npmrc"',
  'mkdir -p "$HOME/.config/pip" "$HOME/.local/bin"',
  'printf "[global]\\nindex-url = http://evil.test/\\n" > "$HOME/.config/pip/pip.conf"',
  'printf "#!/bin/sh\\necho planted\\n" > "$HOME/.local/bin/node" && chmod +x "$HOME/.local/bin/node"',
  'echo left > "$HOME/notes.txt"',
].join(' && ');
/** The install refuses to run over planted settings, and appends to a log in its own cache. */
const INSTALL = `${NOTHING_PLANTED} && mkdir -p "$HOME/.cache/sample" && echo installed >> "$HOME/.cache/sample/installs"`;

describe("the job's HOME between runs", () => {
  it('removes what a test run wrote into HOME before the next run and the next install, and keeps the install’s cache', async () => {
    const { ws, job, effects, input, dir, root } = await preparedJob();
    const withTest = (j: JobContext, command: string): JobContext => ({
      ...j,
      config: { ...j.config!, install: { command: INSTALL }, test: { command, report: [] } },
    });
    const installs = () =>
      fs
        .readFileSync(path.join(root, 'homes', job.jobId, '.cache/sample/installs'), 'utf8')
        .trim()
        .split('\n');

    const baseline = await effects.runBaseline(
      input(withTest(job, `${PLANT} && echo planted-ok`), 'runBaseline'),
      {
        signal,
      },
    );
    expect(baseline, baseline.outputTail).toMatchObject({ exitCode: 0, sandbox: 'bwrap' });
    expect(fs.existsSync(path.join(root, 'homes', job.jobId, '.npmrc'))).toBe(true);

    const changes = [{ path: 'src/extra.js', content: 'exports.x = 1;\n' }];
    await ws.applyChanges(
      {
        key: 'k',
        step: 'applyChanges',
        attempt: 1,
        notBefore: null,
        job: { ...job, proposal: { changes, explanation: '' } },
      },
      { signal },
    );
    const changed = { ...job, baseline: { ...baseline, at: 0 }, changes: mergeChanges([], changes) };

    // The next test run sees none of it, and the install's cache as it made it: no second install.
    const check = `${NOTHING_PLANTED} && test "$(command -v node)" != "$HOME/.local/bin/node" && echo settled`;
    const next = await effects.runTests(input(withTest(changed, `${check} && ${PLANT}`), 'runTests'), {
      signal,
    });
    expect(next.outputTail).toContain('settled');
    expect(next.exitCode).toBe(0);
    expect(installs()).toEqual(['installed']);

    // A run that rewrote the install's output has the install run again, over a HOME it can trust.
    const tamper = `echo tampered >> "$HOME/.cache/sample/installs" && ${PLANT}`;
    const tampered = await effects.runTests(input(withTest(changed, tamper), 'runTests'), { signal });
    expect(tampered.exitCode).toBe(0);
    const after = await effects.runTests(input(withTest(changed, `${check}`), 'runTests'), { signal });
    expect(after.outputTail).toContain('settled');
    expect(installs()).toEqual(['installed']);

    // The clone is lost after a run planted settings: the install with network runs again, and
    // runs without them.
    await effects.runTests(input(withTest(changed, PLANT), 'runTests'), { signal });
    fs.rmSync(dir, { recursive: true, force: true });
    const rebuilt = await effects.runTests(input(withTest(changed, check), 'runTests'), { signal });
    expect(rebuilt.reasons.map((r) => r.code)).not.toContain('install-failed');
    expect(rebuilt.outputTail).toContain('settled');
  });
});
