// One reload at a time. Two loads running side by side can finish out of order and
// install the older generation last; so a reload asked for while one runs waits for it,
// and however many are asked for meanwhile, exactly one more runs after it (it reads the
// newest files on disk, which is all the later requests wanted). Go's signal.Notify into a
// channel of capacity 1 serves SIGHUP the same way: serial, and coalesced.

export class ReloadQueue {
  private running: Promise<boolean> | null = null;
  private queued: Promise<boolean> | null = null;

  /** `reload` must not throw: it reports failure as false. */
  constructor(private readonly reload: () => Promise<boolean>) {}

  /** True while a reload runs (a request now is queued behind it). */
  get busy(): boolean {
    return this.running !== null;
  }

  /** Resolves with the result of the reload that serves this request. */
  request(): Promise<boolean> {
    if (this.running === null) return this.start();
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.start();
    });
    return this.queued;
  }

  private start(): Promise<boolean> {
    const run = this.reload().finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }
}
