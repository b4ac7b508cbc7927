import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname } from 'node:path';

/** `KB`: kilobytes (1,000 bytes) of gzip; `score`: a Lighthouse score from 0 to 1. */
export type Unit = '/s' | 'ms' | 'events/s' | 'KB' | 'MB' | 'score';

export interface Baseline {
  name: string;
  value: number;
}

export interface Target {
  /** What the issue asks for, as printed. */
  text: string;
  met: boolean;
}

/** One printed line: a figure, the baseline it is read against, and its target when it has one. */
export interface Figure {
  section: string;
  name: string;
  /** null when the figure could not be measured (see `note`). */
  value: number | null;
  unit: Unit;
  baseline?: Baseline;
  /** value / baseline.value */
  ratio?: number;
  target?: Target;
  note?: string;
  /** Extra numbers for the JSON only (e.g. CPU ms per request by component). */
  detail?: Record<string, number>;
}

export function figure(
  section: string,
  name: string,
  value: number,
  unit: Unit,
  extra: {
    baseline?: Baseline;
    target?: Target;
    note?: string;
    detail?: Record<string, number>;
  } = {},
): Figure {
  const ratio =
    extra.baseline && extra.baseline.value > 0 ? value / extra.baseline.value : undefined;
  return { section, name, value, unit, ...extra, ...(ratio === undefined ? {} : { ratio }) };
}

export function notMeasured(section: string, name: string, reason: string): Figure {
  return { section, name, value: null, unit: 'ms', note: `not measured: ${reason}` };
}

export function formatValue(value: number, unit: Unit): string {
  if (!Number.isFinite(value)) return String(value);
  if (unit === 'ms') {
    if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
    return `${value < 10 ? value.toFixed(2) : value.toFixed(1)} ms`;
  }
  if (unit === 'KB') return `${value.toFixed(1)} KB`;
  if (unit === 'MB') return `${value.toFixed(1)} MB`;
  if (unit === 'score') return value.toFixed(2);
  return `${Math.round(value).toLocaleString('en-US')}${unit === '/s' ? '/s' : ' ev/s'}`;
}

export function printTable(figures: readonly Figure[]): string {
  const header = ['Section', 'Figure', 'Value', 'Baseline', 'Ratio', 'Target', 'Result'];
  const rows = figures.map((f) => [
    f.section,
    f.name,
    f.value === null ? '—' : formatValue(f.value, f.unit),
    f.baseline ? `${formatValue(f.baseline.value, f.unit)} (${f.baseline.name})` : '—',
    f.ratio === undefined ? '—' : `${f.ratio.toFixed(2)}×`,
    f.target?.text ?? '—',
    f.value === null ? 'n/a' : f.target ? (f.target.met ? 'PASS' : 'MISS') : 'info',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' │ ');
  const rule = widths.map((w) => '─'.repeat(w)).join('─┼─');
  const out = [line(header), rule, ...rows.map(line)];
  const notes = figures.filter((f) => f.note).map((f) => `  ${f.section} / ${f.name}: ${f.note}`);
  if (notes.length > 0) out.push('', 'Notes:', ...notes);
  return out.join('\n');
}

export async function writeJson(
  path: string,
  figures: readonly Figure[],
  options: Record<string, unknown>,
  machineLoad: readonly unknown[],
): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const body = {
    finishedAt: new Date().toISOString(),
    machine: { cpus: cpus().length, cpuModel: cpus()[0]?.model, node: process.version },
    options,
    machineLoad,
    figures: figures.map((f) => ({
      ...f,
      pass: f.value === null ? null : (f.target?.met ?? null),
    })),
  };
  await writeFile(path, `${JSON.stringify(body, null, 2)}\n`);
}
