const { wordCount } = require('../src/words.js');

describe('wordCount', () => {
  it('counts words', () => expect(wordCount('the quick brown fox')).toBe(4));
  it('counts an empty text as no words', () => expect(wordCount('')).toBe(0));
});
