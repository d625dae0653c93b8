import assert from 'node:assert/strict';
import test from 'node:test';
import { targets } from '../lib/hostile.mjs';

// Case 9: a failing test that prints credentials, as if it had found them: the service's own
// values, a GitHub token, an Anthropic key and a PEM private key. They are stored reversed, so the
// repository's files never hold them as they are printed.

const found = Object.entries(targets.secrets ?? {}).map(
  ([name, reversed]) => `${name}=${[...reversed].reverse().join('')}`,
);

test('prints the credentials it found', () => {
  console.log(found.join('\n'));
  assert.fail(`found credentials:\n${found.join('\n')}`);
});
