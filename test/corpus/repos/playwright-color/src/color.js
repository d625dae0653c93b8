'use strict';

/** `#rrggbb` or `#rgb` as [r, g, b]. */
function hexToRgb(hex) {
  let digits = hex.replace(/^#/, '');
  if (digits.length === 3) digits = [...digits].map((d) => d + d).join('');
  const n = Number.parseInt(digits, 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

module.exports = { hexToRgb };
