import type { CorpusCase, Framework } from '../cases.js';
import { ran, verdict } from '../expectations.js';

// One pair of small repositories per runner beyond the first seven, each shaped like a real
// project that uses it (a class-name joiner like clsx for uvu, a camel-caser like camelcase with
// `node --check && ava` for ava, a Makefile-free CMake project for ctest...). Three cases each:
// adds-a-test, in the runner's first repository, adds a feature and tests for it, which must pass;
// code-only-change refactors the code without changing what it does (a loop rewritten, a helper
// extracted; uvu's in its first repository, the others' in their second), which must pass with the
// same tests as the baseline; breaking-change, in the second, breaks the code, which must fail,
// naming the tests that broke.

type Expect = CorpusCase['expect'];
const c = (
  framework: Framework,
  repo: string,
  name: string,
  change: CorpusCase['change'],
  expect: Expect,
) => ({
  framework,
  name,
  repo: `${framework}-${repo}`,
  change,
  expect,
});

// ---- uvu: per-file lines only, so a file stands for its tests ----

const classesLite = `/** Class names from strings alone: the small, fast variant of classes(). */
export function lite(...args) {
  let out = '';
  for (const arg of args) {
    if (arg && typeof arg === 'string') out += (out && ' ') + arg;
  }
  return out;
}

export default lite;
`;
const classesLiteTest = `import { test } from 'uvu';
import * as assert from 'uvu/assert';
import lite from '../src/lite.js';

test('joins strings', () => {
  assert.is(lite('a', 'b'), 'a b');
});

test('skips falsy values', () => {
  assert.is(lite('a', '', null, 'b'), 'a b');
});

test('ignores objects and arrays', () => {
  assert.is(lite('a', { b: true }, ['c']), 'a');
});

test.run();
`;
/** classes() rewritten with one loop and no recursion into a new array: the same results. */
const classesFlat = `/** Class names from strings, numbers, objects (keys whose values are truthy) and nested arrays. */
export function classes(...args) {
  const out = [];
  const stack = args.reverse();
  while (stack.length) {
    const arg = stack.pop();
    if (!arg) continue;
    if (typeof arg === 'string' || typeof arg === 'number') out.push(String(arg));
    else if (Array.isArray(arg)) for (let i = arg.length - 1; i >= 0; i--) stack.push(arg[i]);
    else if (typeof arg === 'object') for (const key of Object.keys(arg)) if (arg[key]) out.push(key);
  }
  return out.join(' ');
}

export default classes;
`;
const slugBroken = `/** A URL slug: lowercase words joined by dashes, punctuation dropped. */
export function slugify(text) {
  return text.toLowerCase().replace(/[^a-z0-9]+/g, '-');
}
`;

// ---- ava ----

const camelPascal = `const WORD = /[\\p{Lu}]?[\\p{Ll}\\d]+|[\\p{Lu}\\d]+(?![\\p{Ll}])/gu;

/** \`foo-bar\`, \`foo_bar\` and \`Foo Bar\` all become \`fooBar\` (\`FooBar\` with pascalCase). */
export default function camelCase(input, { pascalCase = false } = {}) {
  const words = String(input).match(WORD) ?? [];
  return words
    .map((word, i) =>
      i === 0 && !pascalCase ? word.toLowerCase() : word[0].toUpperCase() + word.slice(1).toLowerCase(),
    )
    .join('');
}
`;
const camelPascalTest = `import test from 'ava';
import camelCase from './index.js';

test('dashes', t => {
  t.is(camelCase('foo-bar'), 'fooBar');
});

test('underscores', t => {
  t.is(camelCase('foo_bar_baz'), 'fooBarBaz');
});

test('spaces', t => {
  t.is(camelCase('Foo Bar'), 'fooBar');
});

test('already camel case', t => {
  t.is(camelCase('fooBar'), 'fooBar');
});

test('numbers', t => {
  t.is(camelCase('foo-2-bar'), 'foo2Bar');
});

test('pascal case', t => {
  t.is(camelCase('foo-bar', {pascalCase: true}), 'FooBar');
});

test('pascal case of one word', t => {
  t.is(camelCase('foo', {pascalCase: true}), 'Foo');
});
`;
const padBroken = `/** \`text\` padded on the left with \`fill\` to \`length\` characters. */
export function padStart(text, length, fill = ' ') {
  const missing = length - text.length;
  if (missing <= 0 || fill === '') return text;
  return fill.repeat(missing).slice(0, missing) + text;
}

/** \`text\` padded on the right with \`fill\` to \`length\` characters. */
export function padEnd(text, length, fill = ' ') {
  return padStart(text, length, fill);
}
`;

/** Both ends share one helper that builds the padding: the same results. */
const padShared = `/** \`missing\` characters of \`fill\` repeated, the last copy cut short. */
function padding(missing, fill) {
  return fill.repeat(Math.ceil(missing / fill.length)).slice(0, missing);
}

/** \`text\` padded on the left with \`fill\` to \`length\` characters. */
export function padStart(text, length, fill = ' ') {
  const missing = length - text.length;
  return missing <= 0 || fill === '' ? text : padding(missing, fill) + text;
}

/** \`text\` padded on the right with \`fill\` to \`length\` characters. */
export function padEnd(text, length, fill = ' ') {
  const missing = length - text.length;
  return missing <= 0 || fill === '' ? text : text + padding(missing, fill);
}
`;

// ---- tape ----

const rangeStep = `'use strict';

/** The integers from \`start\` up to, not including, \`end\`, \`step\` apart. */
function range(start, end, step = 1) {
  if (step <= 0) throw new RangeError('step must be positive');
  const out = [];
  for (let i = start; i < end; i += step) out.push(i);
  return out;
}

module.exports = { range };
`;
const rangeStepTest = `'use strict';
const test = require('tape');
const { range } = require('..');

test('steps by more than one', (t) => {
  t.deepEqual(range(0, 7, 3), [0, 3, 6]);
  t.end();
});

test('refuses a step that never gets there', (t) => {
  t.throws(() => range(0, 3, 0), RangeError);
  t.end();
});
`;
const wordsBroken = `'use strict';

/** The words of \`text\`: runs of letters and digits. */
function words(text) {
  return text.split(' ');
}

/** How many words \`text\` has. */
function count(text) {
  return words(text).length;
}

module.exports = { words, count };
`;

/** words() walks the matches one by one instead of collecting them with match(): the same words. */
const wordsLoop = `'use strict';

const WORD = /[\\w']+/g;

/** The words of \`text\`: runs of letters, digits and apostrophes. */
function words(text) {
  const out = [];
  for (const m of text.matchAll(WORD)) out.push(m[0]);
  return out;
}

/** How many words \`text\` has. */
function count(text) {
  return words(text).length;
}

module.exports = { words, count };
`;

// ---- node-tap ----

const queuePeek = `'use strict';

/** A first-in, first-out queue. */
class Queue {
  constructor() {
    this.items = [];
  }
  push(item) {
    this.items.push(item);
    return this;
  }
  shift() {
    return this.items.shift();
  }
  /** The next item, left in the queue. */
  peek() {
    return this.items[0];
  }
  get size() {
    return this.items.length;
  }
}

module.exports = { Queue };
`;
const queuePeekTest = `'use strict';
const t = require('tap');
const { Queue } = require('../lib/queue');

t.test('peek shows the next item', (t) => {
  const q = new Queue().push('a').push('b');
  t.equal(q.peek(), 'a');
  t.equal(q.size, 2);
  t.end();
});
`;
const clampBroken = `'use strict';

/** \`n\` held between \`min\` and \`max\`. */
function clamp(n, min, max) {
  return Math.max(Math.min(n, min), max);
}

module.exports = clamp;
`;

/** clamp() reads as its two steps, each a named helper: the same results. */
const clampSteps = `'use strict';

/** \`n\`, or \`min\` when \`n\` is below it. */
const atLeast = (n, min) => Math.max(n, min);

/** \`n\`, or \`max\` when \`n\` is above it. */
const atMost = (n, max) => Math.min(n, max);

/** \`n\` held between \`min\` and \`max\`. */
function clamp(n, min, max) {
  return atMost(atLeast(n, min), max);
}

module.exports = clamp;
`;

// ---- jasmine ----

const stackSize = `'use strict';

/** A last-in, first-out stack. */
class Stack {
  constructor() {
    this.items = [];
  }
  push(item) {
    this.items.push(item);
  }
  pop() {
    return this.items.pop();
  }
  peek() {
    return this.items[this.items.length - 1];
  }
  get size() {
    return this.items.length;
  }
}

module.exports = { Stack };
`;
const stackSizeSpec = `'use strict';
const { Stack } = require('../lib/stack');

describe('Stack size', () => {
  it('counts what was pushed and not popped', () => {
    const s = new Stack();
    s.push(1);
    s.push(2);
    s.pop();
    expect(s.size).toBe(1);
  });
});
`;
const moneyBroken = `'use strict';

/** Cents as a price: 1234 is "$12.34". */
function formatCents(cents) {
  return \`$\${(cents / 100).toFixed(2)}\`;
}

module.exports = { formatCents };
`;

/** The dollars and the cents each come from a helper: the same text. */
const moneySplit = `'use strict';

/** Whole dollars and the cents left over, of a non-negative amount of cents. */
function split(cents) {
  return [Math.floor(cents / 100), cents % 100];
}

/** Cents as a price: 1234 is "$12.34". */
function formatCents(cents) {
  const [dollars, rest] = split(Math.abs(cents));
  const sign = cents < 0 ? '-' : '';
  return \`\${sign}$\${dollars}.\${String(rest).padStart(2, '0')}\`;
}

module.exports = { formatCents };
`;

// ---- Playwright Test ----

const queryAll = `'use strict';

/** A query string's parameters as an object; a repeated key keeps its last value. */
function parseQuery(query) {
  const out = {};
  for (const [key, value] of new URLSearchParams(query)) out[key] = value;
  return out;
}

/** Every value of each key, in order. */
function parseQueryAll(query) {
  const out = {};
  for (const [key, value] of new URLSearchParams(query)) (out[key] ??= []).push(value);
  return out;
}

module.exports = { parseQuery, parseQueryAll };
`;
const queryAllSpec = `'use strict';
const { test, expect } = require('@playwright/test');
const { parseQueryAll } = require('../src/query');

test('keeps every value of a repeated key', () => {
  expect(parseQueryAll('a=1&a=2&b=3')).toEqual({ a: ['1', '2'], b: ['3'] });
});
`;
const colorBroken = `'use strict';

/** \`#rrggbb\` or \`#rgb\` as [r, g, b]. */
function hexToRgb(hex) {
  const digits = hex.replace(/^#/, '');
  const n = Number.parseInt(digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

module.exports = { hexToRgb };
`;

/** The short form is widened by a helper with a regular expression: the same colours. */
const colorChannels = `'use strict';

/** \`rgb\` as \`rrggbb\`; six digits stay as they are. */
function widen(digits) {
  return digits.length === 3 ? digits.replace(/./g, '$&$&') : digits;
}

/** \`#rrggbb\` or \`#rgb\` as [r, g, b]. */
function hexToRgb(hex) {
  const n = Number.parseInt(widen(hex.replace(/^#/, '')), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

module.exports = { hexToRgb };
`;

// ---- bun ----

const semverSatisfies = `/** Compares two \`major.minor.patch\` versions: -1, 0 or 1. */
export function compare(a, b) {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) {
    if (pa[i] !== pb[i]) return pa[i] < pb[i] ? -1 : 1;
  }
  return 0;
}

/** Whether \`version\` is at least \`min\` and of the same major version (a caret range). */
export function satisfiesCaret(version, min) {
  return compare(version, min) >= 0 && version.split('.')[0] === min.split('.')[0];
}
`;
const semverSatisfiesTest = `import { describe, expect, test } from 'bun:test';
import { satisfiesCaret } from '../src/semver.js';

describe('satisfiesCaret', () => {
  test('takes a newer minor', () => {
    expect(satisfiesCaret('1.4.0', '1.2.3')).toBe(true);
  });

  test('refuses the next major', () => {
    expect(satisfiesCaret('2.0.0', '1.2.3')).toBe(false);
  });
});
`;
const chunkBroken = `/** \`items\` in groups of \`size\`; the last group may be shorter. */
export function chunk(items, size) {
  const out = [];
  for (let i = 0; i + size <= items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
`;

/** chunk() builds its groups with Array.from instead of a loop: the same groups. */
const chunkFrom = `/** \`items\` in groups of \`size\`; the last group may be shorter. */
export function chunk(items, size) {
  const groups = Math.ceil(items.length / size);
  return Array.from({ length: groups }, (_, g) => items.slice(g * size, (g + 1) * size));
}
`;

// ---- deno ----

const iniStringify = `/** An INI text as { section: { key: value } }; keys before any section go under "". */
export function parseIni(text) {
  const out = { '': {} };
  let section = '';
  for (const raw of text.split('\\n')) {
    const line = raw.trim();
    if (!line || line.startsWith(';') || line.startsWith('#')) continue;
    if (line.startsWith('[') && line.endsWith(']')) {
      section = line.slice(1, -1).trim();
      out[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq > 0) out[section][line.slice(0, eq).trim()] = line.slice(eq + 1).trim();
  }
  return out;
}

/** The INI text parseIni reads back. */
export function stringifyIni(data) {
  const lines = Object.entries(data[''] ?? {}).map(([k, v]) => \`\${k}=\${v}\`);
  for (const [section, pairs] of Object.entries(data)) {
    if (section === '') continue;
    lines.push(\`[\${section}]\`, ...Object.entries(pairs).map(([k, v]) => \`\${k}=\${v}\`));
  }
  return lines.join('\\n');
}
`;
const iniStringifyTest = `import { parseIni, stringifyIni } from './ini.js';

function assertEquals(actual, expected) {
  const a = JSON.stringify(actual);
  const e = JSON.stringify(expected);
  if (a !== e) throw new Error(\`expected \${e}, got \${a}\`);
}

Deno.test('writes sections after the top keys', () => {
  assertEquals(stringifyIni({ '': { a: '1' }, s: { b: '2' } }), 'a=1\\n[s]\\nb=2');
});

Deno.test('reads back what it writes', () => {
  const data = { '': {}, db: { host: 'x', port: '5' } };
  assertEquals(parseIni(stringifyIni(data)), data);
});
`;
const dedentBroken = `/** \`text\` with the indentation its lines share removed, and its blank first and last lines. */
export function dedent(text) {
  const lines = text.replace(/^\\n/, '').replace(/\\n\\s*$/, '').split('\\n');
  const indents = lines.map((l) => l.match(/^ */)[0].length);
  const common = indents.length ? Math.min(...indents) : 0;
  return lines.map((l) => l.slice(common)).join('\\n');
}
`;

/** The indentation is measured by a helper, and the smallest found in one pass: the same text. */
const dedentHelper = `/** How many spaces start \`line\`, or null for a blank line (which does not count). */
function indentOf(line) {
  return line.trim() ? line.match(/^ */)[0].length : null;
}

/** \`text\` with the indentation its lines share removed, and its blank first and last lines. */
export function dedent(text) {
  const lines = text.replace(/^\\n/, '').replace(/\\n\\s*$/, '').split('\\n');
  let common = Infinity;
  for (const line of lines) {
    const indent = indentOf(line);
    if (indent !== null && indent < common) common = indent;
  }
  if (common === Infinity) common = 0;
  return lines.map((l) => l.slice(common)).join('\\n');
}
`;

// ---- PHPUnit ----

const temperatureKelvin = `<?php

final class Temperature
{
    /** Degrees Celsius as Fahrenheit. */
    public static function toFahrenheit(float $celsius): float
    {
        return $celsius * 9 / 5 + 32;
    }

    /** Degrees Celsius as kelvins. */
    public static function toKelvin(float $celsius): float
    {
        return $celsius + 273.15;
    }
}
`;
const kelvinTest = `<?php

use PHPUnit\\Framework\\TestCase;

final class KelvinTest extends TestCase
{
    public function testFreezing(): void
    {
        $this->assertSame(273.15, Temperature::toKelvin(0));
    }

    public function testAbsoluteZero(): void
    {
        $this->assertSame(0.0, Temperature::toKelvin(-273.15));
    }
}
`;
const romanBroken = `<?php

final class Roman
{
    private const NUMERALS = [
        'M' => 1000, 'D' => 500, 'C' => 100, 'L' => 50, 'X' => 10, 'V' => 5, 'I' => 1,
    ];

    /** A positive integer in Roman numerals. */
    public static function fromInt(int $n): string
    {
        $out = '';
        foreach (self::NUMERALS as $numeral => $value) {
            while ($n >= $value) {
                $out .= $numeral;
                $n -= $value;
            }
        }
        return $out;
    }
}
`;

/** Each numeral repeated by division instead of a subtracting loop: the same numerals. */
const romanDivide = `<?php

final class Roman
{
    private const NUMERALS = [
        'M' => 1000, 'CM' => 900, 'D' => 500, 'CD' => 400, 'C' => 100, 'XC' => 90,
        'L' => 50, 'XL' => 40, 'X' => 10, 'IX' => 9, 'V' => 5, 'IV' => 4, 'I' => 1,
    ];

    /** A positive integer in Roman numerals. */
    public static function fromInt(int $n): string
    {
        $out = '';
        foreach (self::NUMERALS as $numeral => $value) {
            $count = intdiv($n, $value);
            if ($count > 0) {
                $out .= str_repeat($numeral, $count);
                $n -= $count * $value;
            }
        }
        return $out;
    }
}
`;

// ---- RSpec ----

const inflectSingular = `# Plural and singular forms of English nouns, by the common rules.
module Inflect
  IRREGULAR = { 'child' => 'children', 'person' => 'people' }.freeze

  def self.pluralize(word)
    return IRREGULAR[word] if IRREGULAR.key?(word)
    return "#{word[0..-2]}ies" if word.end_with?('y') && !'aeiou'.include?(word[-2])
    return "#{word}es" if word.end_with?('s', 'x', 'ch', 'sh')

    "#{word}s"
  end

  def self.singularize(word)
    return IRREGULAR.key(word) if IRREGULAR.value?(word)
    return "#{word[0..-4]}y" if word.end_with?('ies')
    return word[0..-3] if word.end_with?('ses', 'xes', 'ches', 'shes')

    word.delete_suffix('s')
  end
end
`;
const singularSpec = `require_relative '../lib/inflect'

RSpec.describe Inflect do
  describe '.singularize' do
    it 'drops an s' do
      expect(Inflect.singularize('cats')).to eq('cat')
    end

    it 'turns ies into y' do
      expect(Inflect.singularize('cities')).to eq('city')
    end

    it 'knows irregular words' do
      expect(Inflect.singularize('people')).to eq('person')
    end
  end
end
`;
const accountBroken = `# A bank account that never goes below zero.
class Account
  class Overdrawn < StandardError; end

  attr_reader :balance

  def initialize(balance = 0)
    @balance = balance
  end

  def deposit(amount)
    @balance = amount
    self
  end

  def withdraw(amount)
    @balance -= amount
    self
  end
end
`;

/** The overdraft check moved into a private method: the same behaviour. */
const accountGuard = `# A bank account that never goes below zero.
class Account
  class Overdrawn < StandardError; end

  attr_reader :balance

  def initialize(balance = 0)
    @balance = balance
  end

  def deposit(amount)
    @balance += amount
    self
  end

  def withdraw(amount)
    ensure_covers(amount)
    @balance -= amount
    self
  end

  private

  def ensure_covers(amount)
    return if amount <= @balance

    raise Overdrawn, "balance #{@balance} is less than #{amount}"
  end
end
`;

// ---- minitest ----

const durationParse = `# Seconds in words: 3725 is "1h 2m 5s"; and back.
module Duration
  UNITS = { 'h' => 3600, 'm' => 60, 's' => 1 }.freeze

  def self.words(seconds)
    parts = UNITS.filter_map do |unit, size|
      next if seconds < size

      count, seconds = seconds.divmod(size)
      "#{count}#{unit}"
    end
    parts.empty? ? '0s' : parts.join(' ')
  end

  def self.seconds(words)
    words.scan(/(\\d+)([hms])/).sum { |count, unit| count.to_i * UNITS.fetch(unit) }
  end
end
`;
const durationParseTest = `require 'test_helper'

class DurationSecondsTest < Minitest::Test
  def test_reads_words_back
    assert_equal 3725, Duration.seconds('1h 2m 5s')
  end

  def test_reads_zero
    assert_equal 0, Duration.seconds('0s')
  end
end
`;
const statsBroken = `# Summary statistics of a list of numbers.
module Stats
  def self.mean(values)
    values.sum / values.size
  end

  def self.median(values)
    sorted = values.sort
    sorted[sorted.size / 2].to_f
  end
end
`;

/** median() takes the one or two middle values with a slice, then reuses mean(): the same results. */
const statsMiddle = `# Summary statistics of a list of numbers.
module Stats
  def self.mean(values)
    values.sum.to_f / values.size
  end

  def self.median(values)
    sorted = values.sort
    mid = sorted.size / 2
    mean(sorted.size.odd? ? [sorted[mid]] : sorted[mid - 1, 2])
  end
end
`;

// ---- ctest ----

const gcdLcm = {
  'CMakeLists.txt': `cmake_minimum_required(VERSION 3.16)
project(numbers C)
enable_testing()

add_library(numbers src/numbers.c)
target_include_directories(numbers PUBLIC src)

foreach(name gcd_basic gcd_zero lcm_basic)
  add_executable(\${name} tests/\${name}.c)
  target_link_libraries(\${name} numbers)
  add_test(NAME \${name} COMMAND \${name})
endforeach()
`,
  'src/numbers.h': `#ifndef NUMBERS_H
#define NUMBERS_H

/* The greatest common divisor of a and b (gcd(0, 0) is 0). */
unsigned gcd(unsigned a, unsigned b);
/* The least common multiple of a and b (0 when either is 0). */
unsigned lcm(unsigned a, unsigned b);

#endif
`,
  'src/numbers.c': `#include "numbers.h"

unsigned gcd(unsigned a, unsigned b) {
  while (b != 0) {
    unsigned r = a % b;
    a = b;
    b = r;
  }
  return a;
}

unsigned lcm(unsigned a, unsigned b) { return a == 0 || b == 0 ? 0 : a / gcd(a, b) * b; }
`,
  'tests/lcm_basic.c': `#include "numbers.h"
#include "check.h"

int main(void) {
  CHECK(lcm(4, 6) == 12);
  CHECK(lcm(0, 5) == 0);
  return 0;
}
`,
};
const bitsBroken = `#include "bits.h"

int popcount(unsigned x) {
  int n = 0;
  for (; x > 1; x >>= 1) n += x & 1;
  return n;
}

int parity(unsigned x) { return popcount(x) & 1; }
`;

/** popcount() shifts each bit out instead of clearing the lowest set one: the same counts. */
const bitsShift = `#include "bits.h"

int popcount(unsigned x) {
  int n = 0;
  while (x != 0) {
    n += (int)(x & 1u);
    x >>= 1;
  }
  return n;
}

int parity(unsigned x) { return popcount(x) & 1; }
`;

export const runnerCases: CorpusCase[] = [
  c(
    'uvu',
    'classnames',
    'adds-a-test',
    { 'src/lite.js': classesLite, 'test/lite.js': classesLiteTest },
    {
      baseline: ran(8),
      // uvu never names the added tests: the new file stands for them, seen whole (all 3 passed).
      after: verdict('pass', 11),
    },
  ),
  // Its files all pass before and after, and no test changed: a pass on per-file evidence alone.
  c(
    'uvu',
    'classnames',
    'code-only-change',
    { 'src/index.js': classesFlat },
    { baseline: ran(8), after: verdict('pass', 8) },
  ),
  c(
    'uvu',
    'slug',
    'breaking-change',
    { 'src/slug.js': slugBroken },
    {
      baseline: ran(4),
      after: verdict('fail', 2, 2, 0, [
        'tests/slug.js',
        'tests/slug.js > slugify > drops punctuation at the ends',
        'tests/slug.js > slugify > folds accents',
      ]),
    },
  ),
  c(
    'ava',
    'camel',
    'adds-a-test',
    { 'index.js': camelPascal, 'test.js': camelPascalTest },
    {
      baseline: ran(5),
      after: verdict('pass', 7),
    },
  ),
  c(
    'ava',
    'pad',
    'code-only-change',
    { 'src/pad.js': padShared },
    { baseline: ran(5), after: verdict('pass', 5) },
  ),
  c(
    'ava',
    'pad',
    'breaking-change',
    { 'src/pad.js': padBroken },
    {
      baseline: ran(5),
      after: verdict('fail', 3, 2, 0, [
        'test/end.test.js > pads with spaces',
        'test/end.test.js > pads with zeros',
      ]),
    },
  ),
  c(
    'tape',
    'range',
    'adds-a-test',
    { 'index.js': rangeStep, 'test/step.js': rangeStepTest },
    {
      baseline: ran(3),
      after: verdict('pass', 5),
    },
  ),
  c(
    'tape',
    'words',
    'code-only-change',
    { 'lib/words.js': wordsLoop },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'tape',
    'words',
    'breaking-change',
    { 'lib/words.js': wordsBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 1, 2, 0, ['counts words', 'splits on spaces and punctuation']),
    },
  ),
  c(
    'node-tap',
    'queue',
    'adds-a-test',
    { 'lib/queue.js': queuePeek, 'test/peek.js': queuePeekTest },
    {
      baseline: ran(2),
      after: verdict('pass', 3),
    },
  ),
  c(
    'node-tap',
    'clamp',
    'code-only-change',
    { 'index.js': clampSteps },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'node-tap',
    'clamp',
    'breaking-change',
    { 'index.js': clampBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 1, 2, 0, [
        'test/clamp.js > keeps numbers inside the range',
        'test/clamp.js > raises numbers below the range',
      ]),
    },
  ),
  c(
    'jasmine',
    'stack',
    'adds-a-test',
    { 'lib/stack.js': stackSize, 'spec/size.spec.js': stackSizeSpec },
    {
      baseline: ran(2),
      after: verdict('pass', 3),
    },
  ),
  c(
    'jasmine',
    'money',
    'code-only-change',
    { 'lib/money.js': moneySplit },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'jasmine',
    'money',
    'breaking-change',
    { 'lib/money.js': moneyBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 2, 1, 0, [
        'spec/money.spec.js > formatCents > negative amounts > puts the sign first',
      ]),
    },
  ),
  c(
    'playwright',
    'url',
    'adds-a-test',
    { 'src/query.js': queryAll, 'tests/all.spec.js': queryAllSpec },
    {
      baseline: ran(3),
      after: verdict('pass', 4),
    },
  ),
  c(
    'playwright',
    'color',
    'code-only-change',
    { 'src/color.js': colorChannels },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'playwright',
    'color',
    'breaking-change',
    { 'src/color.js': colorBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 2, 1, 0, ['tests/color.spec.js > reads three digits']),
    },
  ),
  c(
    'bun',
    'semver',
    'adds-a-test',
    { 'src/semver.js': semverSatisfies, 'test/satisfies.test.js': semverSatisfiesTest },
    {
      baseline: ran(3),
      after: verdict('pass', 5),
    },
  ),
  c(
    'bun',
    'chunk',
    'code-only-change',
    { 'src/chunk.js': chunkFrom },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'bun',
    'chunk',
    'breaking-change',
    { 'src/chunk.js': chunkBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 2, 1, 0, ['src/chunk.test.js > keeps a short last group']),
    },
  ),
  c(
    'deno',
    'ini',
    'adds-a-test',
    { 'ini.js': iniStringify, 'stringify_test.js': iniStringifyTest },
    {
      baseline: ran(3),
      after: verdict('pass', 5),
    },
  ),
  c(
    'deno',
    'dedent',
    'code-only-change',
    { 'mod.js': dedentHelper },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'deno',
    'dedent',
    'breaking-change',
    { 'mod.js': dedentBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 2, 1, 0, ['mod_test.js > ignores blank lines when measuring']),
    },
  ),
  c(
    'phpunit',
    'temperature',
    'adds-a-test',
    { 'src/Temperature.php': temperatureKelvin, 'tests/KelvinTest.php': kelvinTest },
    {
      baseline: ran(3),
      after: verdict('pass', 5),
    },
  ),
  c(
    'phpunit',
    'roman',
    'code-only-change',
    { 'src/Roman.php': romanDivide },
    { baseline: ran(4), after: verdict('pass', 4) },
  ),
  c(
    'phpunit',
    'roman',
    'breaking-change',
    { 'src/Roman.php': romanBroken },
    {
      baseline: ran(4),
      after: verdict('fail', 1, 3, 0, [
        'tests/RomanTest.php > RomanTest > testFromInt with data set "four"',
        'tests/RomanTest.php > RomanTest > testFromInt with data set "nine"',
        'tests/RomanTest.php > RomanTest > testFromInt with data set "year"',
      ]),
    },
  ),
  c(
    'rspec',
    'inflect',
    'adds-a-test',
    { 'lib/inflect.rb': inflectSingular, 'spec/singular_spec.rb': singularSpec },
    {
      baseline: ran(4),
      after: verdict('pass', 7),
    },
  ),
  c(
    'rspec',
    'bank',
    'code-only-change',
    { 'lib/account.rb': accountGuard },
    { baseline: ran(4), after: verdict('pass', 4) },
  ),
  c(
    'rspec',
    'bank',
    'breaking-change',
    { 'lib/account.rb': accountBroken },
    {
      baseline: ran(4),
      after: verdict('fail', 2, 2, 0, [
        'spec/account_spec.rb > Account adds deposits',
        'spec/account_spec.rb > Account when withdrawing refuses more than the balance',
      ]),
    },
  ),
  c(
    'minitest',
    'duration',
    'adds-a-test',
    { 'lib/duration.rb': durationParse, 'test/seconds_test.rb': durationParseTest },
    {
      baseline: ran(3),
      after: verdict('pass', 5),
    },
  ),
  c(
    'minitest',
    'stats',
    'code-only-change',
    { 'lib/stats.rb': statsMiddle },
    { baseline: ran(3), after: verdict('pass', 3) },
  ),
  c(
    'minitest',
    'stats',
    'breaking-change',
    { 'lib/stats.rb': statsBroken },
    {
      baseline: ran(3),
      after: verdict('fail', 1, 2, 0, [
        'test/stats_test.rb > Stats > test_0001_averages',
        'test/stats_test.rb > Stats > test_0003_averages the middle two of an even list',
      ]),
    },
  ),
  c('ctest', 'gcd', 'adds-a-test', gcdLcm, { baseline: ran(2), after: verdict('pass', 3) }),
  c(
    'ctest',
    'bits',
    'code-only-change',
    { 'src/bits.c': bitsShift },
    { baseline: ran(2), after: verdict('pass', 2) },
  ),
  c(
    'ctest',
    'bits',
    'breaking-change',
    { 'src/bits.c': bitsBroken },
    {
      baseline: ran(2),
      after: verdict('fail', 0, 2, 0, ['parity', 'popcount']),
    },
  ),
];
