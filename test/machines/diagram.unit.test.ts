import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';
import {
  ANY_STATE,
  eventLabel,
  machineGraph,
  machineJson,
  machineMermaid,
  mermaidWithPath,
  restingGraph,
} from '../../src/machines/diagram.js';
import { jobMachine } from '../../src/machines/job.js';
import { finalStates, JOB_STATES, transientStates } from '../../src/machines/job-states.js';

const lines = (text: string) => text.split('\n');

// What Mermaid's state grammar accepts on one line: ids end at `:`, space, `-` or `{`; a
// description ends at `:`, `;` or a newline; class lists are word characters.
const ID = String.raw`[^:\s\-{]+`;
const grammar = [
  /^stateDiagram-v2$/,
  new RegExp(`^  (${ID}|\\[\\*\\]) --> (${ID}|\\[\\*\\])( : [^:;#\\n]+)?$`),
  new RegExp(`^  ${ID}( : [^:;#\\n]+)?$`),
  /^ {2}classDef \w+ [^\n]+$/,
  /^ {2}class \w+(,\w+)* \w+$/,
];

describe('the machine as a Mermaid diagram', () => {
  const mermaid = machineMermaid();

  it('names every state of the machine, and ends the final ones', () => {
    const states = Object.keys(jobMachine.root.states);
    expect(states.length).toBeGreaterThan(10);
    // The typed union that every renderer is keyed by is exactly the states a job can stand in:
    // the machine's, less the choices it passes through within one event.
    expect([...JOB_STATES, ...transientStates].sort()).toEqual([...states].sort());
    for (const state of states) expect(mermaid).toMatch(new RegExp(`^ {2}${state}( : .*)?$`, 'm'));
    for (const state of finalStates) expect(lines(mermaid)).toContain(`  ${state} --> [*]`);
    expect(lines(mermaid)[1]).toBe('  [*] --> preparing');
  });

  it('draws every transition candidate of every state, and each of the root once, from any state', () => {
    const edges = lines(mermaid).filter((l) => / --> (?!\[\*\])/.test(l) && !l.includes('[*] -->'));
    let expected = 0;
    for (const node of Object.values(jobMachine.root.states)) {
      for (const [event, candidates] of node.transitions) {
        for (const t of candidates) {
          const to = t.target?.[0]?.key ?? node.key;
          expected++;
          expect(edges.some((l) => l.startsWith(`  ${node.key} --> ${to} : ${eventLabel(event)}`))).toBe(
            true,
          );
        }
      }
    }
    // Eventless transitions (a waiting job that has queued work) are drawn as `always`.
    for (const node of Object.values(jobMachine.root.states)) expected += node.always?.length ?? 0;
    for (const [event, candidates] of jobMachine.root.transitions) {
      for (const t of candidates) {
        expected++;
        expect(
          edges.some((l) => l.startsWith(`  ${ANY_STATE} --> ${t.target?.[0]?.key ?? ANY_STATE} : ${event}`)),
        ).toBe(true);
      }
    }
    expect(edges).toHaveLength(expected);
    expect(lines(mermaid)).toContain(`  ${ANY_STATE} : any state but a final one`);
    expect(lines(mermaid)).toContain(`  ${ANY_STATE} --> cancelled : JobCancelled`);
  });

  it('labels the refine loop, retries, error routes and fallbacks exactly', () => {
    const all = lines(mermaid);
    for (const edge of [
      '  testing --> refining : runTests done [attemptsLeft]',
      '  testing --> concluding : runTests done [testsPassed]',
      '  testing --> concluding : runTests done [else]',
      '  refining --> applying : refine done [else]',
      '  applying --> testing : applyChanges done [appliedSomething]',
      '  testing --> testing : runTests error [canRetry]',
      '  testing --> concluding : runTests error [else]',
      '  applying --> concluding : applyChanges done [failsFast]',
      '  concluding --> answering : always [inRound]',
      '  concluding --> openingPr : always [hasChanges]',
      '  concluding --> escalating : always [asksForHelp]',
      '  concluding --> failed : always [else]',
      '  openingPr --> promoting : openPr done [else]',
      '  openingPr --> prOpened : openPr done [lastTestsFailed]',
      '  promoting --> promoted : promotePr done [madeReady]',
      '  promoting --> prOpened : promotePr error [else]',
      '  prOpened --> syncing : always [inboxWaiting]',
      '  prOpened --> checkingCi : CiCompleted [ciForHead]',
      '  promoted --> prOpened : PrUpdated [markedDraft]',
      '  checkingCi --> demoting : readCi done [ciFailedOnReady]',
      '  checkingCi --> rerunningCi : readCi done [rerunAllowed]',
      '  answering --> syncing : answerRound error [headMoved]',
      '  anyState --> cancelled : JobCancelled',
      '  anyState --> merged : PrClosed [merged]',
      '  anyState --> closed : PrClosed [else]',
      '  anyState --> prOpened : CommandReceived [stopInRound]',
      '  anyState --> anyState : CommandReceived [retryTaken]',
      '  anyState --> answering : CommandReceived [stopsRound]',
      '  checkingCi --> rerunningCi : readCi done [rerunBeforeDemoting]',
      '  promoted --> answeringQuestion : always [questionWaiting]',
      '  preparing --> syncing : prepare done [onPersonPr]',
      '  testing : invoke runTests',
      '  testing --> concluding : runTests done [stalled]',
      '  generating --> budgetExhausted : generate error [budgetParks]',
      '  budgetExhausted --> generating : CommandReceived [continueGenerating]',
      '  analyzing --> postingPlan : analyze done [planNeedsApproval]',
      '  awaitingApproval --> generating : CommandReceived [commandApprove]',
      '  awaitingApproval --> analyzing : CommandReceived [commandRevise]',
      '  openingPr --> escalating : openPr done [escalatesFailing]',
      '  escalating --> prOpened : escalate done [hasPr]',
    ])
      expect(all).toContain(edge);
    // A job that is over takes no more events.
    expect(mermaid).not.toMatch(/^ {2}(merged|closed|failed|cancelled) --> (?!\[\*\])/m);
  });

  it('keeps every line inside the Mermaid state grammar', () => {
    const highlighted = mermaidWithPath(['preparing', 'testing']);
    for (const line of lines(highlighted))
      expect(
        grammar.some((re) => re.test(line)),
        line,
      ).toBe(true);
  });

  it('draws a state the machine gains, and refuses a nested machine rather than drop its states', () => {
    const grown = createMachine({
      id: 'm',
      initial: 'a',
      on: { STOP: '.stopped' },
      states: {
        a: { on: { GO: 'extra' } },
        extra: { always: 'done' },
        done: { type: 'final' },
        stopped: { type: 'final' },
      },
    });
    expect(lines(machineMermaid(grown))).toEqual([
      'stateDiagram-v2',
      '  [*] --> a',
      '  a',
      '  extra',
      '  done',
      '  stopped',
      '  anyState : any state but a final one',
      '  a --> extra : GO',
      '  extra --> done : always',
      '  anyState --> stopped : STOP',
      '  done --> [*]',
      '  stopped --> [*]',
    ]);
    const nested = createMachine({
      id: 'n',
      initial: 'a',
      states: { a: { initial: 'b', states: { b: {} } } },
    });
    expect(() => machineGraph(nested)).toThrow('diagram: state a is compound; only flat machines are drawn');
  });
});

describe('the choice where the loop ends', () => {
  it('takes no event of its own: the root reaches only the states a job stands in', () => {
    const g = machineGraph();
    expect(g.states.filter((s) => s.type === 'choice')).toEqual([
      { name: 'concluding', type: 'choice', invokes: [] },
    ]);
    const fromRoot = new Set(g.transitions.filter((t) => t.fromRoot).map((t) => t.from));
    expect([...fromRoot].sort()).toEqual(JOB_STATES.filter((s) => !finalStates.includes(s as never)).sort());
  });

  it("is drawn on a job's path as the edges it joins, since no job stands in it", () => {
    const g = restingGraph();
    expect(g.states.map((s) => s.name).sort()).toEqual([...JOB_STATES].sort());
    expect(g.transitions.filter((t) => t.from === 'concluding' || t.to === 'concluding')).toEqual([]);
    const fromTesting = g.transitions
      .filter((t) => t.from === 'testing' && !t.fromRoot)
      .map((t) => `${t.to} : ${t.label}`);
    expect(fromTesting).toEqual([
      'answering : runTests done [testsPassed], always [inRound]',
      'openingPr : runTests done [testsPassed], always [hasChanges]',
      'escalating : runTests done [testsPassed], always [asksForHelp]',
      'failed : runTests done [testsPassed], always [else]',
      'answering : runTests done [failsFast], always [inRound]',
      'openingPr : runTests done [failsFast], always [hasChanges]',
      'escalating : runTests done [failsFast], always [asksForHelp]',
      'failed : runTests done [failsFast], always [else]',
      'answering : runTests done [stalled], always [inRound]',
      'openingPr : runTests done [stalled], always [hasChanges]',
      'escalating : runTests done [stalled], always [asksForHelp]',
      'failed : runTests done [stalled], always [else]',
      'refining : runTests done [attemptsLeft]',
      'answering : runTests done [else], always [inRound]',
      'openingPr : runTests done [else], always [hasChanges]',
      'escalating : runTests done [else], always [asksForHelp]',
      'failed : runTests done [else], always [else]',
      'testing : runTests error [canRetry]',
      'answering : runTests error [else], always [inRound]',
      'openingPr : runTests error [else], always [hasChanges]',
      'escalating : runTests error [else], always [asksForHelp]',
      'failed : runTests error [else], always [else]',
    ]);
  });
});

describe("a job's path through the diagram", () => {
  it('marks the visited states and the one the job stands in, ignoring names the machine lacks', () => {
    const path = [
      'preparing',
      'baselining',
      'analyzing',
      'generating',
      'applying',
      'testing',
      'refining',
      'applying',
      'testing',
      'nowhere',
    ];
    const out = lines(mermaidWithPath(path));
    expect(out.slice(0, lines(machineMermaid()).length)).toEqual(lines(machineMermaid()));
    expect(out.slice(-2)).toEqual([
      '  class preparing,baselining,analyzing,generating,applying,refining visited',
      '  class testing current',
    ]);
    expect(out.filter((l) => l.startsWith('  classDef '))).toHaveLength(2);
  });

  it('adds no class lines for an empty path', () => {
    expect(mermaidWithPath([])).not.toMatch(/^ {2}class /m);
    expect(lines(mermaidWithPath(['promoted'])).slice(-1)).toEqual(['  class promoted current']);
  });
});

describe('the machine as JSON', () => {
  it('is the machine config without its code, for createMachine() in Stately tools', () => {
    const json = machineJson() as any;
    expect(JSON.parse(JSON.stringify(json))).toEqual(json);
    expect(Object.keys(json.states)).toEqual(Object.keys(jobMachine.root.states));
    expect(json).toMatchObject({ id: 'job', initial: 'preparing' });
    expect(json.context).toBeUndefined();
    expect(json.states.testing.invoke).toEqual({
      id: 'runTests',
      src: 'runTests',
      onDone: [
        { guard: 'testsPassed', target: 'concluding', actions: 'recordTests' },
        { guard: 'failsFast', target: 'concluding', actions: ['recordTests', 'endFailFast'] },
        { guard: 'stalled', target: 'concluding', actions: ['recordTests', 'endStalled'] },
        { guard: 'attemptsLeft', target: 'refining', actions: ['recordTests', 'nextAttempt'] },
        { target: 'concluding', actions: ['recordTests', 'endTestsFailing'] },
      ],
      onError: [
        { guard: 'canRetry', target: '#job.testing', reenter: true, actions: 'scheduleRetry' },
        { target: '#job.concluding', actions: 'endOnError' },
      ],
    });
    // It builds a machine with the same shape.
    const rebuilt = createMachine(json);
    expect(Object.keys(rebuilt.root.states)).toEqual(Object.keys(jobMachine.root.states));
  });
});
