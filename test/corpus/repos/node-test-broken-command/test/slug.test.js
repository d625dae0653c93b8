import assert from 'node:assert/strict';
import { it } from 'node:test';
import { slugify } from '../src/slug.js';

it('lowercases and joins words', () => assert.equal(slugify('Hello World'), 'hello-world'));
