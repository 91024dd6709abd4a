/** The error log is kept under 1,000,000 characters; past that the older half is trimmed (spec 000 section 8). */
export const ERROR_LOG_MAX_CHARS = 1_000_000;

/** A capped log of error reports (POST /api/apperror), oldest first. */
export class AppErrorLog {
  private entries: string[] = [];
  private size = 0;

  constructor(private readonly maxChars: number = ERROR_LOG_MAX_CHARS) {}

  append(entry: string): void {
    const line = entry.length > this.maxChars / 2 ? entry.slice(0, Math.floor(this.maxChars / 2)) : entry;
    this.entries.push(line);
    this.size += line.length;
    if (this.size < this.maxChars) return;
    // Drop the older half of the text, whole entries at a time.
    let dropped = 0;
    let i = 0;
    while (i < this.entries.length && dropped < this.size / 2) dropped += this.entries[i++].length;
    this.entries = this.entries.slice(i);
    this.size -= dropped;
  }

  /** The kept text, oldest first. */
  text(): string {
    return this.entries.join('\n');
  }

  get length(): number {
    return this.size;
  }
}
