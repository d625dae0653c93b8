import fs from 'node:fs';
import path from 'node:path';
import type { Responder } from '../../sim/anthropic/anthropic-simulator.js';
import { examplesDir } from '../../src/demo/demo-script.js';

// Scripted models for the e2e tests: the demo's analysis, then a fixed answer per request for changes.

/** The demo's analysis of its sample issue. */
export const demoAnalysis = JSON.parse(
  fs.readFileSync(path.join(examplesDir, 'demo-turns', 'analysis.json'), 'utf8'),
);

/** A model that analyses as the demo does, then gives each request for changes the next answer; the last repeats. */
export function scriptedModel(answers: object[]): Responder {
  let n = 0;
  return (request) =>
    request.toolName === 'submit_analysis'
      ? { answer: demoAnalysis }
      : { answer: answers[Math.min(n++, answers.length - 1)] };
}

/** The same, each attempt answering with the next of these files (path to content), or refused with an HTTP error. */
export function filesModel(attempts: (Record<string, string> | { error: number })[]): Responder {
  let n = 0;
  return (request) => {
    if (request.toolName === 'submit_analysis') return { answer: demoAnalysis };
    const next = attempts[Math.min(n++, attempts.length - 1)]!;
    if ('error' in next) return { error: next.error as number, message: 'the request was refused' };
    const changes = Object.entries(next).map(([p, content]) => ({ path: p, content }));
    return { answer: { explanation: `attempt ${n}`, changes, deletePaths: [] } };
  };
}
