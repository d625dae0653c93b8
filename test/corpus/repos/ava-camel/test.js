import test from 'ava';
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
