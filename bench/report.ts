/**
 * The bench's rows: each figure ours beside its baseline measured in the same run, the ratio, the
 * issue's target and whether it is met. Printed as one table and written as JSON.
 */
export type Target =
  /** ours / baseline at most this. */
  | { ratio: number }
  /** ours at most this, in the row's unit. */
  | { atMost: number };

export interface Row {
  /** Stable key for scripts reading the JSON. */
  id: string;
  measure: string;
  unit: 'ms' | 'KB' | 'elements' | '%' | 'steps' | 'frames';
  ours: number | null;
  baseline: number | null;
  /** What the baseline is. */
  baselineIs: string;
  target: Target | null;
  /** Why a figure is missing or measured differently from the wording. */
  note?: string;
  /** The ratio when it is not ours / baseline: the median of paired runs' ratios (pairedRatio). */
  ownRatio?: number;
}

export interface Result extends Row {
  ratio: number | null;
  target: Target | null;
  targetText: string;
  /** null: no target, or nothing to judge. */
  pass: boolean | null;
}

export const judge = (row: Row): Result => {
  const ratio = row.ownRatio ?? (row.ours !== null && row.baseline !== null && row.baseline > 0 ? row.ours / row.baseline : null);
  let pass: boolean | null = null;
  let targetText = '';
  if (row.target && 'ratio' in row.target) {
    targetText = `≤ ${row.target.ratio}×`;
    pass = ratio === null ? (row.ours === null ? false : null) : ratio <= row.target.ratio;
  } else if (row.target) {
    targetText = `≤ ${row.target.atMost.toLocaleString('en')} ${row.unit}`;
    pass = row.ours === null ? false : row.ours <= row.target.atMost;
  }
  return { ...row, ratio, targetText, pass };
};

const figure = (value: number | null, unit: string) => {
  if (value === null) return '—';
  const rounded = Math.abs(value) >= 100 ? Math.round(value).toLocaleString('en') : value.toFixed(1);
  return `${rounded} ${unit}`;
};

/** The results as console.table prints them. */
export const tableOf = (results: Result[]) =>
  results.map((result) => ({
    measure: result.measure,
    Loopscope: figure(result.ours, result.unit),
    baseline: figure(result.baseline, result.unit),
    ratio: result.ratio === null ? '—' : `${result.ratio.toFixed(2)}×`,
    target: result.targetText || '—',
    pass: result.pass === null ? '' : result.pass ? 'yes' : 'NO',
  }));

/** The same table in Markdown, for docs/performance.md. */
export const markdownOf = (results: Result[]) => {
  const rows = tableOf(results);
  const lines = ['| measure | Loopscope | baseline | ratio | target | pass |', '|---|---|---|---|---|---|'];
  for (const row of rows) lines.push(`| ${row.measure} | ${row.Loopscope} | ${row.baseline} | ${row.ratio} | ${row.target} | ${row.pass} |`);
  return lines.join('\n');
};

/** Replaces the table between a pair of markers (`bench-table`, or `bench-loaded-table` for `--loaded`) in docs/performance.md. */
export const withBenchTable = (doc: string, table: string, marker = 'bench-table') => {
  const start = doc.indexOf(`<!-- ${marker}:start`);
  const end = doc.indexOf(`<!-- ${marker}:end -->`);
  if (start < 0 || end < start) throw new Error(`docs/performance.md has lost its ${marker} markers`);
  const afterStartMarker = doc.indexOf('\n', start) + 1;
  return `${doc.slice(0, afterStartMarker)}${table}${doc.slice(end)}`;
};

export const median = (values: number[]) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

export const percentile = (values: number[], p: number) => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
};

/**
 * The median of `ours[n] / theirs[n]`: each pair measured side by side, so what slows a moment of a
 * shared machine slows both of a pair, and one slow pair does not move the median.
 */
export const pairedRatio = (ours: number[], theirs: number[]) =>
  median(ours.flatMap((value, n) => (theirs[n] > 0 ? [value / theirs[n]] : [])));
