import { writeFile } from 'node:fs/promises';
import path from 'node:path';

// Jasmine has no report file of its own: its `--reporter=<module>` replaces the console reporter
// with one the repository names. booty names this one: it prints a line per spec and the
// failures, as people read them, and writes JUnit XML with each spec's file (jasmine-core 5 and
// later give `filename` and `parentSuiteId` on every result), suite path and failures. Written
// into the report directory, which the sandboxed command can read; works in parallel mode too.

const JASMINE_REPORTER_FILE = 'booty-jasmine-reporter.cjs';

const source = (xml: string) => `// Written by booty: a spec line for people, JUnit XML for booty.
'use strict';
const fs = require('node:fs');
const OUT = ${JSON.stringify(xml)};
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c])
  // XML 1.0 has no place for most control characters.
  .replace(/[\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f]/g, '');
const failureText = (list) => list.map((f) => [f.message, f.stack].filter(Boolean).join('\\n')).join('\\n\\n');

module.exports = class BootyJasmineReporter {
  constructor() {
    this.reporterCapabilities = { parallel: true };
    this.suites = new Map();
    this.cases = [];
    this.counts = { specs: 0, failed: 0, pending: 0 };
  }
  suiteStarted(r) {
    this.suites.set(r.id, r);
  }
  path(r) {
    const names = [];
    for (let id = r.parentSuiteId; id && this.suites.has(id); id = this.suites.get(id).parentSuiteId)
      names.unshift(this.suites.get(id).description);
    return names.length || !r.fullName ? [...names, r.description] : [r.fullName];
  }
  specDone(r) {
    const status = r.status === 'passed' ? 'passed' : r.status === 'failed' ? 'failed' : 'skipped';
    this.counts.specs++;
    if (status === 'failed') this.counts.failed++;
    if (status === 'skipped') this.counts.pending++;
    const mark = status === 'passed' ? '✓' : status === 'failed' ? '✗' : '-';
    process.stdout.write(mark + ' ' + r.fullName + '\\n');
    const text = failureText(r.failedExpectations || []);
    if (status === 'failed') process.stdout.write(text.replace(/^/gm, '    ') + '\\n');
    this.cases.push({ file: r.filename || '', titles: this.path(r), status, text, ms: r.duration });
  }
  suiteDone(r) {
    // An afterAll that failed: a failure of the suite itself.
    if (r.failedExpectations && r.failedExpectations.length) {
      const text = failureText(r.failedExpectations);
      process.stdout.write('✗ ' + r.fullName + ' (afterAll)\\n' + text.replace(/^/gm, '    ') + '\\n');
      this.cases.push({ file: r.filename || '', titles: [...this.path(r), '(afterAll)'], status: 'failed', text, ms: r.duration });
    }
  }
  jasmineDone(r) {
    for (const f of (r && r.failedExpectations) || []) {
      const text = failureText([f]);
      process.stdout.write('✗ ' + (f.globalErrorType || 'error') + '\\n' + text.replace(/^/gm, '    ') + '\\n');
      this.cases.push({ file: f.filename || '', titles: ['jasmine ' + (f.globalErrorType || 'error')], status: 'failed', text, ms: 0 });
    }
    const { specs, failed, pending } = this.counts;
    process.stdout.write('\\n' + specs + ' specs, ' + failed + ' failures' + (pending ? ', ' + pending + ' pending' : '') + '\\n');
    const rows = this.cases.map((c) => {
      const head = '<testcase classname="' + esc(c.file) + '" file="' + esc(c.file) + '" name="' + esc(c.titles.join(' > ')) + '" time="' + ((c.ms || 0) / 1000) + '">';
      const body = c.status === 'failed' ? '<failure message="">' + esc(c.text) + '</failure>' : c.status === 'skipped' ? '<skipped/>' : '';
      return head + body + '</testcase>';
    });
    fs.writeFileSync(OUT, '<?xml version="1.0" encoding="UTF-8"?>\\n<testsuites name="jasmine"><testsuite name="jasmine">\\n' + rows.join('\\n') + '\\n</testsuite></testsuites>\\n');
  }
};
`;

/** Writes the reporter module into `dir`; it writes its report to `xml`. Returns its path. */
export async function writeJasmineReporter(dir: string, xml: string): Promise<string> {
  const file = path.join(dir, JASMINE_REPORTER_FILE);
  await writeFile(file, source(xml));
  return file;
}
