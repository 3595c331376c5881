/**
 * The progress bar (cli-progress) on standard error: shown on a terminal,
 * quiet when standard error is piped, with `--quiet`, or for one file;
 * `--progress` forces it (one line per update when not on a terminal).
 *
 * @module
 */

import type { SingleBar } from "cli-progress";

/**
 * Options of {@link ProgressBar}.
 *
 * @example
 * ```ts
 * const options: ProgressOptions = { total: 10_000, quiet: false, force: false, label: "check" };
 * ```
 */
export interface ProgressOptions {
  /** How many files there are. */
  readonly total: number;
  /** `--quiet`: never. */
  readonly quiet: boolean;
  /** `--progress`: always (unless quiet). */
  readonly force: boolean;
  /** What is being done ("links", "check", "rewrite"). */
  readonly label: string;
}

/**
 * A progress bar that may be off; every method is a no-op then.
 *
 * @example
 * ```ts
 * const bar = await ProgressBar.start({ total: jobs.length, quiet: false, force: false, label: "links" });
 * bar.tick(16); // 16 more files done
 * bar.stop();
 * ```
 */
export class ProgressBar {
  readonly #bar: SingleBar | null;
  #value = 0;

  private constructor(bar: SingleBar | null) {
    this.#bar = bar;
  }

  /**
   * A bar shown as `options` say, started at 0.
   *
   * Optimisation: cli-progress loads only for a bar that is shown (not in a
   * pipe, nor in a worker, which loads this module with its command's).
   */
  static async start(options: ProgressOptions): Promise<ProgressBar> {
    const stderr = process.stderr;
    const enabled = !options.quiet && (options.force || (stderr.isTTY === true && options.total > 1));
    if (!enabled) return new ProgressBar(null);
    const { default: cliProgress } = await import("cli-progress");
    const bar = new cliProgress.SingleBar(
      {
        stream: stderr,
        format: `docbase ${options.label} [{bar}] {percentage}% | {value}/{total} files | {eta_formatted} left`,
        barsize: 30,
        hideCursor: stderr.isTTY === true,
        clearOnComplete: true,
        // Output written between two renders moves the line the bar is on: draw it again every time.
        forceRedraw: true,
        noTTYOutput: options.force,
        notTTYSchedule: 250,
        fps: 10,
      },
      cliProgress.Presets.shades_classic,
    );
    bar.start(options.total, 0);
    return new ProgressBar(bar);
  }

  /** `count` more files are done. */
  tick(count: number): void {
    if (this.#bar === null) return;
    this.#value += count;
    this.#bar.update(this.#value);
  }

  /**
   * Clears the bar's line before something is written to standard output,
   * when both go to the same terminal (the bar is drawn again after it).
   */
  clearLine(): void {
    if (this.#bar !== null && process.stderr.isTTY === true && process.stdout.isTTY === true) process.stderr.write("\r\x1b[2K");
  }

  /** Removes the bar. */
  stop(): void {
    this.#bar?.stop();
  }
}
