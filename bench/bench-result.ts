// The shape every benchmark reports: its value, the baseline measured in the same run, and the goal.
export interface BenchResult {
  name: string;
  metric: string;
  value: number;
  baseline: number | null;
  ratio: number | null;
  unit: string;
  goal: string;
}

export const ratio = (value: number, baseline: number) => Math.round((value / baseline) * 1000) / 1000;
export const round = (n: number, digits = 1) => Math.round(n * 10 ** digits) / 10 ** digits;
