import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { slugify } from '../src/slug.js';

const slug = suite('slugify');

slug('lowercases and joins words', () => {
  assert.is(slugify('Hello World'), 'hello-world');
});

slug('drops punctuation at the ends', () => {
  assert.is(slugify('  Why? '), 'why');
});

slug('folds accents', () => {
  assert.is(slugify('Crème Brûlée'), 'creme-brulee');
});

slug('keeps digits', () => {
  assert.is(slugify('Route 66'), 'route-66');
});

slug.run();
