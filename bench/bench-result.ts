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

/** The middle value; for an even count, the mean of the two middle ones. */
export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
