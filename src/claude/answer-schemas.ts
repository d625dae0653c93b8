import { transformJSONSchema } from '@anthropic-ai/sdk/lib/transform-json-schema';
import type { Tool } from '@anthropic-ai/sdk/resources/messages/messages';
import { z } from 'zod';
import { type Analysis, FailureClass } from '../events/effect-results.js';

// What the model must answer, as zod schemas. Each becomes the input schema of a single strict tool
// the request forces, so the answer arrives as JSON the schema can check; the same schema validates it.

const RelativePath = z
  .string()
  .min(1)
  .refine(
    (p) =>
      !p.startsWith('/') &&
      !p.includes('\\') &&
      !p.split('/').some((part) => part === '..' || part === '') &&
      p !== '.git' &&
      !p.startsWith('.git/'),
    'must be a path relative to the repository root, without "..", "//" or .git/',
  )
  .describe('A path relative to the repository root, with forward slashes.');

export const AnalysisAnswer = z.object({
  summary: z
    .string()
    .min(1)
    .describe('What the issue asks for and how you will solve it, in a few sentences.'),
  changeKind: z.enum(['feat', 'fix']).describe('feat for new behaviour, fix for a bug.'),
  filesToRead: z.array(RelativePath).describe('Existing files whose content is needed to make the change.'),
  filesToChange: z.array(RelativePath).describe('Files to create or modify, source code only.'),
  testsToAdd: z
    .array(RelativePath)
    .describe('Test files to create or extend, following the repository layout.'),
  acceptanceCriteria: z.array(z.string()).describe('Observable behaviours the tests will check.'),
  risks: z.array(z.string()).describe('What could break, or what is ambiguous in the issue.'),
}) satisfies z.ZodType<Analysis>;

export const ChangesAnswer = z
  .object({
    explanation: z
      .string()
      .min(1)
      .describe(
        'Before any change: what you will change and why. On a refinement, first why the last attempt failed and how this one differs. It goes into the pull request and is shown to you on the next attempt.',
      ),
    edits: z
      .array(
        z.object({
          path: RelativePath,
          search: z
            .string()
            .min(1)
            .describe('Lines copied exactly from the current file; they must occur exactly once in it.'),
          replace: z.string().describe('The text that replaces them.'),
        }),
      )
      // Absent in answers written before edits existed (the demo's scripted turns): none.
      .default([])
      .describe(
        'Targeted changes to existing files, applied in order; several edits may change one file. Use these for every file that already exists.',
      ),
    changes: z
      .array(
        z.object({
          path: RelativePath,
          content: z.string().describe('The complete content of the file, not a diff.'),
        }),
      )
      .describe(
        'New files, each with its complete content. Change an existing file with edits, not by repeating it whole.',
      ),
    deletePaths: z.array(RelativePath).describe('Files to delete; usually empty. Never a test file.'),
  })
  .superRefine((answer, ctx) => {
    const edited = new Set(answer.edits.map((e) => e.path));
    const paths = [...answer.changes.map((c) => c.path), ...answer.deletePaths, ...edited];
    const seen = new Set<string>();
    for (const p of paths) {
      if (seen.has(p))
        ctx.addIssue({
          code: 'custom',
          message: `path ${p} appears more than once across edits, changes and deletePaths`,
        });
      seen.add(p);
    }
    if (paths.length === 0) ctx.addIssue({ code: 'custom', message: 'the answer changes no file' });
  });
export type ChangesAnswer = z.infer<typeof ChangesAnswer>;

export interface AnswerTool<T> {
  name: string;
  schema: z.ZodType<T>;
  tool: Tool;
}

function answerTool<T>(name: string, description: string, schema: z.ZodType<T>): AnswerTool<T> {
  // The SDK's own transform keeps the schema within what strict tool use accepts (constraints it
  // cannot enforce move into descriptions; zod still checks them).
  const json = transformJSONSchema(z.toJSONSchema(schema) as Record<string, unknown>) as Record<
    string,
    unknown
  >;
  delete json.$schema;
  return {
    name,
    schema,
    tool: { name, description, strict: true, input_schema: json as Tool.InputSchema },
  };
}

export const analysisTool = answerTool(
  'submit_analysis',
  'Submit your analysis of the issue. Call it exactly once with the complete analysis.',
  AnalysisAnswer,
);

export const changesTool = answerTool(
  'submit_changes',
  'Submit your change, code and tests: first what you will change and why, then search/replace edits to existing files and the complete content of new files.',
  ChangesAnswer,
);

export const QuestionAnswer = z.object({
  answer: z
    .string()
    .min(1)
    .describe(
      'The answer, in GitHub Markdown, for the people who asked: plain, short, and true to the code at the commit read. Name the files and lines it rests on. Propose no patch unless asked how a change would look: nothing is committed.',
    ),
  references: z
    .array(
      z.object({
        path: RelativePath,
        line: z
          .number()
          .int()
          .positive()
          .nullable()
          .describe('The first line it rests on, or null for the whole file.'),
        endLine: z.number().int().positive().nullable().describe('The last line, or null for one line.'),
      }),
    )
    .describe(
      'The places in the repository the answer rests on, at the commit read: each file, and its lines.',
    ),
});
export type QuestionAnswer = z.infer<typeof QuestionAnswer>;

export const questionTool = answerTool(
  'submit_answer',
  'Submit your answer to the question, with the files and lines it rests on. Call it exactly once.',
  QuestionAnswer,
);

export const FailureClassAnswer = z.object({
  // `unreadable` is booty's own reading of a run, never a failure's cause.
  failureClass: FailureClass.exclude(['unreadable']).describe(
    'The one class that best names the first cause of the failure.',
  ),
});

export const failureClassTool = answerTool(
  'submit_failure_class',
  'Submit the class of the test failure. Call it exactly once.',
  FailureClassAnswer,
);

/** The validation error in a form the model (and a person) can act on. */
export function describeIssues(error: z.ZodError): string {
  return z.prettifyError(error);
}
