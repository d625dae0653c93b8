'use strict';

/** The words of `text`: runs of letters, digits and apostrophes. */
function words(text) {
  return text.match(/[\w']+/g) || [];
}

/** How many words `text` has. */
function count(text) {
  return words(text).length;
}

module.exports = { words, count };
