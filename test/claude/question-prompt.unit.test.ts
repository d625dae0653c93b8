import { describe, expect, it } from 'vitest';
import { questionTask, questionText } from '../../src/claude/prompts.js';
import type { DomainEvent } from '../../src/events/catalogue.js';
import { foldJob } from '../../src/machines/fold.js';
import { jobView } from '../../src/machines/job-context.js';
import { happy, ok, outside } from '../machines/decider/decider.js';

// What the model is told for a round of questions: the question now, fenced as the writers' data,
// after the questions and answers of the job's earlier rounds, so a follow-up reads what it follows.

describe('the question prompt', () => {
  it('carries the earlier question and its answer before the follow-up', () => {
    const log: DomainEvent[] = [
      ...happy.promoted(),
      outside.question('Why does parse() return NaN?'),
      ok.questionAnswered(),
      outside.question('And where is it called?'),
    ];
    const snapshot = foldJob(log.map(({ type, ...data }) => ({ type, data })));
    const job = jobView(snapshot.context);
    expect(job.round?.triggers.map((t) => t.kind)).toEqual(['question']);
    const text = questionText(job);
    const earlier = text.indexOf('Why does parse() return NaN?');
    const answer = text.indexOf(`<booty_answer commit="${'b'.repeat(12)}">`);
    const now = text.indexOf('The question now:');
    expect(earlier).toBeGreaterThan(-1);
    expect(answer).toBeGreaterThan(earlier);
    expect(text).toContain('parse() reads an empty string as NaN (src/index.js:1).');
    expect(now).toBeGreaterThan(answer);
    expect(text.slice(now)).toContain('And where is it called?');
    expect(text.slice(now)).not.toContain('Why does parse()');
  });

  it('asks for words, not a change, at the commit read', () => {
    const task = questionTask('c'.repeat(40));
    expect(task).toContain(`at commit ${'c'.repeat(12)}`);
    expect(task).toContain('Nothing will be changed or committed');
  });
});
