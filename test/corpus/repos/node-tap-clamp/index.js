'use strict';

/** `n` held between `min` and `max`. */
function clamp(n, min, max) {
  return Math.min(Math.max(n, min), max);
}

module.exports = clamp;
