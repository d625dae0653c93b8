import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { wordCount } from '../src/words.js';

describe('wordCount', () => {
  it('counts words', () => assert.equal(wordCount('the quick brown fox'), 4));
  it('counts an empty text as no words', () => assert.equal(wordCount(''), 0));
});
