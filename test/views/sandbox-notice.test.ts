import { describe, expect, it } from 'vitest';
import { sandboxChoice } from '../../src/sandbox/sandbox-mode.js';
import { renderPrBody } from '../../src/views/pr-body.js';
import { renderProgress } from '../../src/views/progress-render.js';
import { sandboxNotice } from '../../src/views/test-evidence.js';
import { sampleJobView } from '../support/job-harness.js';
import { testRun } from '../support/scripted-effects.js';

// The notice that tests ran without bubblewrap says who chose the mode: the operator's
// BOOTY_SANDBOX, or the command's default with it unset. A run records only how it was contained,
// so without the choice the notice says what happened and claims no setting.

const ran = (sandbox: 'bwrap' | 'unshare' | 'none') => [{ sandbox }];
const harm = "they could read the machine's files and reach its network.";

describe('the missing-sandbox notice', () => {
  it.each([
    [
      'the operator turned it off',
      'unshare',
      sandboxChoice('off', 'required'),
      `The tests ran without bubblewrap, only in their own process namespace (BOOTY_SANDBOX=off, the operator's setting): ${harm}`,
    ],
    [
      'auto fell back to unshare, by the default of `run`',
      'unshare',
      sandboxChoice(undefined, 'auto'),
      `The tests ran without bubblewrap, only in their own process namespace (bubblewrap cannot run on this machine, and auto, the default with BOOTY_SANDBOX unset, runs the tests without it then): ${harm}`,
    ],
    [
      'auto fell back to nothing, by the operator',
      'none',
      sandboxChoice('auto', 'required'),
      `The tests ran without any sandbox (bubblewrap cannot run on this machine, and BOOTY_SANDBOX=auto, the operator's setting, runs the tests without it then): ${harm}`,
    ],
    [
      'who chose is not known',
      'unshare',
      undefined,
      `The tests ran without bubblewrap, only in their own process namespace: ${harm}`,
    ],
  ] as const)('%s', (_, sandbox, choice, notice) => {
    expect(sandboxNotice(ran(sandbox), choice)).toBe(notice);
  });

  it('is not there when the tests ran under bubblewrap', () => {
    expect(sandboxNotice([...ran('bwrap'), null], sandboxChoice('off', 'auto'))).toBeNull();
  });

  it('in the PR body and the progress comment, a fallback under auto never says the operator set off', () => {
    const test = { ...testRun(true), at: 1, sandbox: 'unshare' as const };
    const job = sampleJobView({}, { baseline: { ...test, changedTests: [] }, lastTest: test });
    const choice = sandboxChoice(undefined, 'auto');
    const body = renderPrBody(job, { sandbox: choice });
    const comment = renderProgress({ value: 'prOpened', context: job }, { sandbox: choice });
    for (const text of [body, comment]) {
      expect(text).toContain(
        '> [!WARNING]\n> The tests ran without bubblewrap, only in their own process namespace (bubblewrap cannot run on this machine, and auto, the default with BOOTY_SANDBOX unset',
      );
      expect(text).not.toContain('BOOTY_SANDBOX=off');
    }
  });
});
