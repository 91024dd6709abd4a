import type { ImportProgress } from '@tessera/core/internal';

/**
 * Progress of `tessera import` on stderr: on a terminal one line redrawn in place, with a bar
 * (while writing, when the number of rows is known), rows, rows per second and the time left;
 * otherwise (a pipe, a log file) a plain line per batch.
 */
export type ProgressStream = { isTTY?: boolean; columns?: number; write(s: string): unknown };

const clock = (seconds: number): string => {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
};
const count = (n: number): string => n.toLocaleString('en-US');

export const progressLine = (p: ImportProgress, elapsedMs: number, width = 24): string => {
  const rate = elapsedMs > 0 ? (p.rows * 1000) / elapsedMs : 0;
  const verb = p.phase === 'validate' ? 'checked' : 'imported';
  if (p.total === undefined || p.total === 0) return `${verb} ${count(p.rows)} rows, ${count(Math.round(rate))} rows/s`;
  const done = Math.min(1, p.rows / p.total);
  const filled = Math.round(done * width);
  const left = rate > 0 ? (p.total - p.rows) / rate : 0;
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${count(p.rows)}/${count(p.total)} rows, ${count(Math.round(rate))} rows/s, ${clock(left)} left`;
};

export class ImportProgressView {
  private phaseStart = Date.now();
  private phase: ImportProgress['phase'] | undefined;
  private drawn = false;

  constructor(
    private readonly out: ProgressStream,
    private readonly now: () => number = Date.now,
  ) {}

  update(p: ImportProgress): void {
    if (p.phase !== this.phase) {
      this.finish();
      this.phase = p.phase;
      this.phaseStart = this.now();
    }
    const line = progressLine(p, this.now() - this.phaseStart);
    if (this.out.isTTY) {
      this.out.write(`\r\x1b[2K${line}`);
      this.drawn = true;
    } else this.out.write(`${line}\n`);
  }

  /** Ends the redrawn line, so what follows starts on a new one. */
  finish(): void {
    if (this.drawn) this.out.write('\n');
    this.drawn = false;
  }
}
