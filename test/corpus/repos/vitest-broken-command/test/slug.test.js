import { expect, it } from 'vitest';
import { slugify } from '../src/slug.js';

it('lowercases and joins words', () => expect(slugify('Hello World')).toBe('hello-world'));
