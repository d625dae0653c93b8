export function emit(options: {
  root: string;
  dirs: string[];
  outdir: string;
  outbase?: string;
  sourcemap?: boolean | 'inline';
}): Promise<void>;
