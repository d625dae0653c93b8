import { expect, test } from 'bun:test';
import { chunk } from './chunk.js';

test('splits evenly', () => {
  expect(chunk([1, 2, 3, 4], 2)).toEqual([[1, 2], [3, 4]]);
});

test('keeps a short last group', () => {
  expect(chunk([1, 2, 3], 2)).toEqual([[1, 2], [3]]);
});

test('gives nothing for nothing', () => {
  expect(chunk([], 3)).toEqual([]);
});
