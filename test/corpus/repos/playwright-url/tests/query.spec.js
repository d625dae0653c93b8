'use strict';
const { test, expect } = require('@playwright/test');
const { parseQuery } = require('../src/query');

test('reads pairs', () => {
  expect(parseQuery('a=1&b=2')).toEqual({ a: '1', b: '2' });
});

test('ignores a leading question mark', () => {
  expect(parseQuery('?q=x')).toEqual({ q: 'x' });
});

test.describe('decoding', () => {
  test('decodes spaces and escapes', () => {
    expect(parseQuery('q=a+b%21')).toEqual({ q: 'a b!' });
  });
});
