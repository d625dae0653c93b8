'use strict';
const { test, expect } = require('@playwright/test');
const { hexToRgb } = require('../src/color');

test('reads six digits', () => {
  expect(hexToRgb('#ff8000')).toEqual([255, 128, 0]);
});

test('reads three digits', () => {
  expect(hexToRgb('#0f0')).toEqual([0, 255, 0]);
});

test('reads without the hash', () => {
  expect(hexToRgb('000000')).toEqual([0, 0, 0]);
});
