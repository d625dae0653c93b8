// No browser: these tests use no page fixture, so none is launched.
const { defineConfig } = require('@playwright/test');

module.exports = defineConfig({ testDir: 'tests', workers: 1, reporter: 'list' });
