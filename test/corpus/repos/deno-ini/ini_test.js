import { parseIni } from './ini.js';

function assertEquals(actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(`expected ${e}, got ${a}`);
}

Deno.test('reads keys into their section', () => {
  assertEquals(parseIni('[db]\nhost = x\nport=5'), { '': {}, db: { host: 'x', port: '5' } });
});

Deno.test('skips comments and blank lines', () => {
  assertEquals(parseIni('; note\n\n# other\na=1'), { '': { a: '1' } });
});

Deno.test('sections', async (t) => {
  await t.step('keeps keys before any section apart', () => {
    assertEquals(parseIni('a=1\n[s]\nb=2'), { '': { a: '1' }, s: { b: '2' } });
  });
});
