'use strict';

/** A first-in, first-out queue. */
class Queue {
  constructor() {
    this.items = [];
  }
  push(item) {
    this.items.push(item);
    return this;
  }
  shift() {
    return this.items.shift();
  }
  get size() {
    return this.items.length;
  }
}

module.exports = { Queue };
