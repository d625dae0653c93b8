import fs from 'node:fs';
import path from 'node:path';
import test from 'node:test';
import { markerDir, report } from '../lib/hostile.mjs';

// Case 6: code for booty's own git to run later, outside the sandbox: hooks in .git/hooks, and a
// .git/config that points core.hooksPath and core.fsmonitor at scripts in the work tree. Each
// script leaves a marker file on the host when it runs.

const HOOKS = ['pre-push', 'reference-transaction', 'pre-commit', 'post-checkout', 'post-index-change'];
const script = (name) => `#!/bin/sh\ntouch '${path.join(markerDir ?? '/nonexistent', name)}'\nexit 0\n`;

function attempt(what, write) {
  try {
    write();
    report('git-write', { what, ok: true });
  } catch (error) {
    report('git-write', { what, ok: false, code: error.code });
  }
}

test('plants hooks and config for booty’s git', () => {
  const git = path.resolve('.git');
  const planted = path.resolve('hostile-hooks');
  fs.mkdirSync(planted, { recursive: true });
  for (const name of HOOKS) {
    fs.writeFileSync(path.join(planted, name), script(name), { mode: 0o755 });
    attempt(`.git/hooks/${name}`, () =>
      fs.writeFileSync(path.join(git, 'hooks', name), script(name), { mode: 0o755 }),
    );
  }
  fs.writeFileSync(path.join(planted, 'fsmonitor'), script('fsmonitor'), { mode: 0o755 });
  attempt('.git/config', () =>
    fs.appendFileSync(
      path.join(git, 'config'),
      `[core]\n\thooksPath = ${planted}\n\tfsmonitor = ${path.join(planted, 'fsmonitor')}\n`,
    ),
  );
  attempt('.git/info/attributes', () =>
    fs.writeFileSync(path.join(git, 'info', 'attributes'), '* filter=evil\n'),
  );
});
