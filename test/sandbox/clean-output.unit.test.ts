import { describe, expect, it } from 'vitest';
import { cleanOutput, stripAnsi } from '../../src/sandbox/clean-output.js';

describe('cleanOutput', () => {
  it('removes whole escape sequences, and SGR remnants whose ESC was already lost', () => {
    const raw =
      '\u001b[31m✖ fails\u001b[39m \u001b[2m(3ms)\u001b[22m \u001b]8;;http://x\u0007link\u001b]8;;\u0007 [1;31mred[0m';
    const out = stripAnsi(raw);
    expect(out).toBe('✖ fails (3ms) link red');
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the ESC byte is what must be absent.
    expect(out).not.toMatch(/\u001b|\[\d*(;\d+)*m/);
  });

  it('removes sequences a reporter wrote out as text', () => {
    expect(stripAnsi('\\x1B[31mexpected 2\\x1B[39m and \\u001b[2mdim\\u001b[22m')).toBe('expected 2 and dim');
  });

  it('keeps the last draw of a line redrawn with CR, and shows the workspace as . and HOME as ~', () => {
    const out = cleanOutput(
      'progress 10%\rprogress 100%\r\nat /w/jobs/j1/src/a.js:3\ncache /w/homes/j1/.npm\n',
      {
        workspace: '/w/jobs/j1',
        home: '/w/homes/j1',
      },
    );
    expect(out).toBe('progress 100%\nat ./src/a.js:3\ncache ~/.npm\n');
  });

  it('scrubs what the scrubber is given', () => {
    expect(cleanOutput('token=s3cr3t-value', { scrub: (t) => t.replace('s3cr3t-value', '[redacted]') })).toBe(
      'token=[redacted]',
    );
  });
});
