/**
 * One request at a time, each started at least `intervalMs` after the previous one started
 * (Nominatim's usage policy: at most one request a second from one application). A small FIFO:
 * every caller waits its turn; a failed task does not stop the queue.
 */
export class RequestSpacing {
  private tail: Promise<unknown> = Promise.resolve();
  private lastStart = -Infinity;

  constructor(
    private readonly intervalMs: number,
    private readonly now: () => number = () => Date.now(),
  ) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    const turn = this.tail.then(async () => {
      const wait = this.lastStart + this.intervalMs - this.now();
      if (wait > 0) await new Promise((ok) => setTimeout(ok, wait));
      this.lastStart = this.now();
      return task();
    });
    this.tail = turn.catch(() => undefined);
    return turn;
  }
}
