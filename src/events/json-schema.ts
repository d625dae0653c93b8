import { z } from 'zod';
import { catalogue, STEPS, StepSucceeded, stepResults } from './catalogue.js';

// The log's format as JSON Schema (draft 2020-12), for tools that read booty's logs without its
// code: one document per event type at the version rows are written with now, and one per step
// for StepSucceeded's `result`. `npm run docs:events` writes them to docs/events/; a test fails
// when the files there differ from what the catalogue says.

const ID_BASE = 'https://github.com/booty/booty/docs/events/';

const schemaOf = (schema: z.ZodType, id: string, title: string) =>
  `${JSON.stringify({ $id: `${ID_BASE}${id}`, title, ...z.toJSONSchema(schema, { unrepresentable: 'throw' }) }, null, 2)}\n`;

/** File name (relative to docs/events/) → its contents. */
export function eventSchemaFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const rows: string[] = [];
  for (const [type, { version, schema }] of Object.entries(catalogue)) {
    const name = `${type}.v${version}.schema.json`;
    files[name] = schemaOf(schema, name, `${type} (version ${version})`);
    rows.push(`| \`${type}\` | ${version} | [${name}](${name}) |`);
  }
  const steps: string[] = [];
  for (const step of STEPS) {
    const name = `steps/${step}.schema.json`;
    const whole = StepSucceeded.extend({ step: z.literal(step), result: stepResults[step] });
    files[name] = schemaOf(whole, name, `StepSucceeded for the step ${step}`);
    steps.push(`| \`${step}\` | [${name}](${name}) |`);
  }
  files['README.md'] = [
    "# booty's event log, as JSON Schema",
    '',
    'Generated from `src/events/` by `npm run docs:events`; a test fails when these files are stale.',
    'A row of the log holds `type`, `version` and `data`: `data` is one of these documents at that',
    "version. Rows from older versions are lifted to today's shape on read (`src/events/versions.ts`).",
    '',
    '| type | version | schema |',
    '|---|---|---|',
    ...rows,
    '',
    "`StepSucceeded`'s `result` has one shape per step:",
    '',
    '| step | schema |',
    '|---|---|',
    ...steps,
    '',
  ].join('\n');
  return files;
}
