import { describe, expect, it } from 'vitest';
import { parseMention } from '../../src/gateway/classify-conversation.js';

// Given a comment's text, when it is read for `@booty`, then this command or request is found.

describe('parseMention', () => {
  it.each([
    ['@booty continue', { command: 'continue' }],
    ['@booty approve', { command: 'approve' }],
    ['Looks good. @Booty Approve  ', { command: 'approve' }],
    ['@booty cancel', { command: 'cancel' }],
    ['@booty retry', { command: 'retry' }],
    ['@booty approve.', { command: 'approve' }],
    ['Thanks! @booty continue!', { command: 'continue' }],
    ['@booty stop, please', { request: '@booty stop, please' }],
  ])('%s is read as %o', (body, expected) => expect(parseMention(body)).toEqual(expected));

  it('takes the revision text, over the following lines too', () => {
    expect(parseMention('@booty revise use a Map, not an object\nand keep the old export')).toEqual({
      command: 'revise',
      text: 'use a Map, not an object\nand keep the old export',
    });
    expect(parseMention('Thanks!\n@booty revise   add a test for zero')).toEqual({
      command: 'revise',
      text: 'add a test for zero',
    });
  });

  it('a bare revise is a revise with nothing to change; a word that only starts like one is a request', () => {
    expect(parseMention('@booty revise')).toEqual({ command: 'revise' });
    expect(parseMention('@booty revised the plan?')).toEqual({ request: '@booty revised the plan?' });
    expect(parseMention('@booty continue with the parser too')).toEqual({
      request: '@booty continue with the parser too',
    });
  });

  it('is null when booty is not called', () => expect(parseMention('please approve')).toBeNull());
});
