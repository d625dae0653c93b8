import { describe, expect, it } from 'vitest';
import { parseMention } from '../../src/forges/github/classify-conversation.js';

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

  it.each([
    ['a quoted command, in a reply', '> @booty cancel\n\nWhy was this cancelled?'],
    ['a quoted command, indented', 'As you said:\n  > @booty approve'],
    ['a command in a fenced block', 'Answer with\n```\n@booty approve\n```\nwhen ready.'],
    ['a command in a tilde fence left open', 'Try:\n~~~\n@booty cancel'],
    ['a command in inline code', 'You can write `@booty cancel` to stop it.'],
    ['a command in an HTML comment', '<!-- reply @booty approve to go on -->\nLooks fine.'],
  ])('%s calls nobody', (_, body) => expect(parseMention(body)).toBeNull());

  it("acts on the commenter's own command beside quoted or fenced ones", () => {
    expect(parseMention('> @booty cancel\n\nNo, keep going.\n@booty approve')).toEqual({
      command: 'approve',
    });
    expect(parseMention('```\n@booty cancel\n```\n@booty revise name it `parse`\n> @booty cancel')).toEqual({
      command: 'revise',
      text: 'name it `parse`\n> @booty cancel',
    });
    expect(parseMention('> quoting you\n@booty add a test')).toEqual({
      request: '> quoting you\n@booty add a test',
    });
  });
});
