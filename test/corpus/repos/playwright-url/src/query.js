'use strict';

/** A query string's parameters as an object; a repeated key keeps its last value. */
function parseQuery(query) {
  const out = {};
  for (const [key, value] of new URLSearchParams(query)) out[key] = value;
  return out;
}

module.exports = { parseQuery };
