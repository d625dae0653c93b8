import { dedent } from './mod.js';

function assertEquals(actual, expected) {
  if (actual !== expected) throw new Error(`expected ${JSON.stringify(expected)}, got ${JSON.stringify(actual)}`);
}

Deno.test('removes the shared indentation', () => {
  assertEquals(dedent('\n    a\n      b\n'), 'a\n  b');
});

Deno.test('leaves text without indentation alone', () => {
  assertEquals(dedent('a\nb'), 'a\nb');
});

Deno.test('ignores blank lines when measuring', () => {
  assertEquals(dedent('  a\n\n  b'), 'a\n\nb');
});
