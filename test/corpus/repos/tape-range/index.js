'use strict';

/** The integers from `start` up to, not including, `end`. */
function range(start, end) {
  const out = [];
  for (let i = start; i < end; i++) out.push(i);
  return out;
}

module.exports = { range };
