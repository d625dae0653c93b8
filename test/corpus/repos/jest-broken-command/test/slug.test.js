const { slugify } = require('../src/slug.js');

it('lowercases and joins words', () => expect(slugify('Hello World')).toBe('hello-world'));
