'use strict';
const t = require('tap');
const { Queue } = require('../lib/queue');

t.test('starts empty', (t) => {
  t.equal(new Queue().size, 0);
  t.end();
});

t.test('gives items back in order', (t) => {
  const q = new Queue().push('a').push('b');
  t.equal(q.shift(), 'a');
  t.equal(q.shift(), 'b');
  t.equal(q.shift(), undefined);
  t.end();
});
