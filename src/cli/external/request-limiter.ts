/**
 * How many requests the external-link checker has open at once, in all and
 * per host, and until when a host asked not to be asked.
 *
 * @module
 */

/** A counting semaphore whose waiters are served in order, and leave the queue when their signal aborts. */
class Semaphore {
  #free: number;
  readonly #waiters: Array<() => void> = [];

  constructor(size: number) {
    this.#free = size;
  }

  /** Whether nobody holds a place or waits for one. */
  idle(size: number): boolean {
    return this.#free === size && this.#waiters.length === 0;
  }

  acquire(signal: AbortSignal): Promise<void> {
    if (this.#free > 0 && this.#waiters.length === 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiters.indexOf(wake);
        if (at !== -1) this.#waiters.splice(at, 1);
        reject(signal.reason);
      };
      const wake = (): void => {
        signal.removeEventListener("abort", onAbort);
        resolve();
      };
      if (signal.aborted) return reject(signal.reason);
      signal.addEventListener("abort", onAbort, { once: true });
      this.#waiters.push(wake);
    });
  }

  release(): void {
    const next = this.#waiters.shift();
    // The place passes straight to the next waiter.
    if (next !== undefined) next();
    else this.#free++;
  }
}

/**
 * The limits on open requests. A request takes its host's place first, so
 * that one waiting for a busy host holds no global place. A host is keyed
 * by name: its ports count together, as a rate limit counts them.
 *
 * @example
 * ```ts
 * const limiter = new RequestLimiter(16, 2);
 * const release = await limiter.acquire("example.com", AbortSignal.timeout(60_000));
 * try {
 *   // … one request to example.com
 * } finally {
 *   release();
 * }
 * ```
 */
export class RequestLimiter {
  readonly #global: Semaphore;
  readonly #hosts = new Map<string, Semaphore>();
  readonly #pausedUntil = new Map<string, number>();
  readonly #perHost: number;

  constructor(concurrency: number, perHost: number) {
    this.#global = new Semaphore(concurrency);
    this.#perHost = perHost;
  }

  /**
   * Waits for a place for a request to `host` (rejects when `signal`
   * aborts first) and resolves to the function that gives it back.
   *
   * @example
   * ```ts
   * const release = await new RequestLimiter(1, 1).acquire("example.com", new AbortController().signal);
   * release();
   * ```
   */
  async acquire(host: string, signal: AbortSignal): Promise<() => void> {
    let forHost = this.#hosts.get(host);
    if (forHost === undefined) this.#hosts.set(host, (forHost = new Semaphore(this.#perHost)));
    await forHost.acquire(signal);
    try {
      await this.#global.acquire(signal);
    } catch (error) {
      this.#releaseHost(host, forHost);
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#global.release();
      this.#releaseHost(host, forHost);
    };
  }

  #releaseHost(host: string, forHost: Semaphore): void {
    forHost.release();
    // A run meets many hosts: an idle one's semaphore goes.
    if (forHost.idle(this.#perHost)) this.#hosts.delete(host);
  }

  /**
   * Records that `host` asked not to be asked before `until` (the
   * checker's clock); a later time wins.
   *
   * @example
   * ```ts
   * limiter.pauseHost("example.com", Date.now() + 5000);
   * ```
   */
  pauseHost(host: string, until: number): void {
    if (until > (this.#pausedUntil.get(host) ?? -Infinity)) this.#pausedUntil.set(host, until);
  }

  /**
   * Until when `host` asked not to be asked, or -Infinity.
   *
   * @example
   * ```ts
   * limiter.pausedUntil("example.com"); // -Infinity, before any Retry-After
   * ```
   */
  pausedUntil(host: string): number {
    return this.#pausedUntil.get(host) ?? -Infinity;
  }
}
