test('parses days', () => {
  assert.equal(parseDuration('2d'), 172_800_000);
  assert.equal(parseDuration('1d 1h'), 90_000_000);
});
