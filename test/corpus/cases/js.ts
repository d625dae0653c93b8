import type { CorpusCase, Framework } from '../cases.js';
import { broken, ran, verdict } from '../expectations.js';

// The four JS runners' cases, written once: their repositories hold the same code and tests. The
// sources are ES modules (jest's repositories get the CommonJS spelling); test files differ in
// imports and assertions only.

export interface JsFlavor {
  /** The framework's own imports, first in every test file. */
  header: string;
  eq: (actual: string, expected: string) => string;
  commonjs: boolean;
}

export const vitestFlavor: JsFlavor = {
  header: "import { describe, expect, it } from 'vitest';\n",
  eq: (a, b) => `expect(${a}).toBe(${b})`,
  commonjs: false,
};
export const jestFlavor: JsFlavor = { header: '', eq: vitestFlavor.eq, commonjs: true };
export const mochaFlavor: JsFlavor = {
  header: "import assert from 'node:assert/strict';\n",
  eq: (a, b) => `assert.equal(${a}, ${b})`,
  commonjs: false,
};
export const nodeTestFlavor: JsFlavor = {
  header: "import assert from 'node:assert/strict';\nimport { describe, it } from 'node:test';\n",
  eq: mochaFlavor.eq,
  commonjs: false,
};

/** An ES module as written, or its CommonJS spelling (require, module.exports) for jest. */
function source(f: JsFlavor, esm: string): string {
  if (!f.commonjs) return esm;
  const names = [...esm.matchAll(/^export (?:function|const) (\w+)/gm)].map((m) => m[1]);
  const body = esm
    .replace(/^export (function|const) /gm, '$1 ')
    .replace(/^import \{ (.+) \} from '(.+)';$/gm, "const { $1 } = require('$2');");
  return `${body}\nmodule.exports = { ${names.join(', ')} };\n`;
}

const use = (f: JsFlavor, names: string, from: string) =>
  f.commonjs ? `const { ${names} } = require('${from}');` : `import { ${names} } from '${from}';`;

type Case = [title: string, actual: string, expected: string];

/** A test file: the imports, then one describe per suite with one-line tests. */
export function testFile(
  f: JsFlavor,
  imports: [names: string, from: string][],
  suites: Record<string, Case[]>,
) {
  const head = `${f.header}${imports.map(([names, from]) => use(f, names, from)).join('\n')}\n`;
  const blocks = Object.entries(suites).map(
    ([suite, cases]) =>
      `describe('${suite}', () => {\n${cases.map(([t, a, b]) => `  it('${t}', () => ${f.eq(a, b)});\n`).join('')}});\n`,
  );
  return [head, ...blocks].join('\n');
}

const parse = `/** Seconds in a duration such as "1h", "90m" or "45 s". */
export function parseDuration(text) {
  const match = /^(\\d+)\\s*([hms])$/.exec(text.trim());
  if (!match) throw new Error(\`not a duration: \${text}\`);
  return Number(match[1]) * UNITS[match[2]];
}
`;

const format = (units: string) => `
/** The shortest text parseDuration reads back, largest units first: 5400 is "1h 30m". */
export function formatDuration(seconds) {
  const parts = [];
  let rest = seconds;
  for (const [unit, size] of Object.entries(${units})) {
    if (rest >= size) {
      parts.push(\`\${Math.floor(rest / size)}\${unit}\`);
      rest %= size;
    }
  }
  return parts.join(' ') || '0s';
}
`;

/** src/duration.js with formatDuration added. */
export const durationWithFormat = (f: JsFlavor) =>
  source(f, `const UNITS = { h: 3600, m: 60, s: 1 };\n\n${parse}${format('UNITS')}`);

/** src/duration.js where a minute became an hour. */
export const durationBroken = (f: JsFlavor) =>
  source(
    f,
    `// Spelled out as products, and the minute became an hour.\nconst UNITS = { h: 60 * 60, m: 60 * 60, s: 1 };\n\n${parse}`,
  );

/** src/duration.js of the install-home repositories, with formatDuration added. */
export const installedDurationWithFormat = (f: JsFlavor) =>
  source(
    f,
    `import { loadUnits } from './units.js';

export function parseDuration(text) {
  const match = /^(\\d+)\\s*([hms])$/.exec(text.trim());
  if (!match) throw new Error(\`not a duration: \${text}\`);
  return Number(match[1]) * loadUnits()[match[2]];
}
${format('loadUnits()')}`,
  );

const wordCount = `// Known bug (issue #3): an empty text counts as one word.
export const wordCount = (text) => text.split(' ').length;
`;

export const wordsWithCharCount = (f: JsFlavor) =>
  source(f, `${wordCount}\nexport const charCount = (text) => text.length;\n`);

export const lines = (f: JsFlavor) =>
  source(
    f,
    "export const lineCount = (text) => (text === '' ? 0 : text.replace(/\\n$/, '').split('\\n').length);\n",
  );

export const formatTests: Record<string, Case[]> = {
  formatDuration: [
    ['formats hours and minutes', 'formatDuration(5400)', "'1h 30m'"],
    ['formats zero', 'formatDuration(0)', "'0s'"],
  ],
};

export const wordTests: Case[] = [
  ['counts words', "wordCount('the quick brown fox')", '4'],
  ['counts an empty text as no words', "wordCount('')", '0'],
];

export const lineTests: Record<string, Case[]> = {
  lineCount: [
    ['counts lines', "lineCount('a\\nb\\n')", '2'],
    ['counts an empty text as no lines', "lineCount('')", '0'],
  ],
};

export const slugTests: Record<string, Case[]> = {
  slugify: [
    ['lowercases and joins words', "slugify('Hello World')", "'hello-world'"],
    ['drops punctuation at the ends', "slugify('  Why? ')", "'why'"],
  ],
};

/** The seven cases of one runner; its repositories are `<prefix>-basic`, `<prefix>-known-bug`... */
function jsCases(framework: Framework, f: JsFlavor, ext: '.test.js' | '.spec.js'): CorpusCase[] {
  const changes = {
    correct: {
      'src/duration.js': durationWithFormat(f),
      [`test/format${ext}`]: testFile(f, [['formatDuration', '../src/duration.js']], formatTests),
    },
    breaking: { 'src/duration.js': durationBroken(f) },
    editsFailingFile: {
      'src/words.js': wordsWithCharCount(f),
      [`test/words${ext}`]: testFile(f, [['charCount, wordCount', '../src/words.js']], {
        wordCount: wordTests,
        charCount: [['counts characters', "charCount('fox')", '3']],
      }),
    },
    firstTests: { [`test/slug${ext}`]: testFile(f, [['slugify', '../src/slug.js']], slugTests) },
    baselineFailures: {
      'src/lines.js': lines(f),
      [`test/lines${ext}`]: testFile(f, [['lineCount', '../src/lines.js']], lineTests),
    },
    installHome: {
      'src/duration.js': installedDurationWithFormat(f),
      [`test/format${ext}`]: testFile(f, [['formatDuration', '../src/duration.js']], {
        formatDuration: [['formats hours and minutes', 'formatDuration(5400)', "'1h 30m'"]],
      }),
    },
  };
  const id = (file: string, ...names: string[]) => [`test/${file}${ext}`, ...names].join(' > ');
  const knownBug = id('words', 'wordCount', 'counts an empty text as no words');
  const c = (name: string, repo: string, change: CorpusCase['change'], expect: CorpusCase['expect']) => ({
    framework,
    name,
    repo: `${framework}-${repo}`,
    change,
    expect,
  });
  return [
    c('correct-change', 'basic', changes.correct, {
      baseline: ran(4, 0, 1),
      after: verdict('pass', 6, 0, 1),
    }),
    c('breaking-change', 'basic', changes.breaking, {
      baseline: ran(4, 0, 1),
      after: verdict('fail', 3, 1, 1, [id('duration', 'parseDuration', 'parses minutes')]),
    }),
    c('edits-failing-test-file', 'known-bug', changes.editsFailingFile, {
      baseline: ran(1, 1, 0, [knownBug]),
      after: verdict('pass', 2, 1, 0, [knownBug]),
    }),
    c('broken-command', 'broken-command', changes.firstTests, { baseline: broken(), after: null }),
    c('no-tests-yet', 'no-tests', changes.firstTests, { baseline: ran(0), after: verdict('pass', 2) }),
    c('baseline-failures', 'known-bug', changes.baselineFailures, {
      baseline: ran(1, 1, 0, [knownBug]),
      after: verdict('pass', 3, 1, 0, [knownBug]),
    }),
    c('install-writes-home', 'install-home', changes.installHome, {
      baseline: ran(2),
      after: verdict('pass', 3),
    }),
  ];
}

export const jestCases = jsCases('jest', jestFlavor, '.test.js');
export const vitestCases = jsCases('vitest', vitestFlavor, '.test.js');
export const mochaCases = jsCases('mocha', mochaFlavor, '.spec.js');
export const nodeTestCases = jsCases('node-test', nodeTestFlavor, '.test.js');
