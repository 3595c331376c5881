/**
 * The error the command raises for misuse: a bad flag, a missing file, a
 * URL that is not absolute. The command prints its message and exits with
 * code 2.
 *
 * @module
 */

/** The cross-realm brand: `Symbol.for` gives every realm the same symbol. */
const usageErrorBrand = Symbol.for("docbase.UsageError");

/**
 * A usage error: the command line asks for something that cannot be done
 * (an unknown flag, two flags that exclude each other, an input that does
 * not exist, a `--url` that is not an absolute URL). Its message names the
 * bad value; `run` prints it and returns exit code 2. Use
 * {@link isUsageError} rather than `instanceof` across realms.
 *
 * @example
 * ```ts
 * try {
 *   await run(["node", "docbase", "links", "site", "--url", "/relative/"]);
 * } catch (error) {
 *   isUsageError(error); // never thrown by run: it returns 2 and prints
 *   // "docbase: --url: not an absolute URL: "/relative/""
 * }
 * new UsageError("--jobs: not a positive integer: \"0\"").exitCode; // 2
 * ```
 */
export class UsageError extends Error {
  /** The process exit code for this error: always 2. */
  readonly exitCode: 2 = 2;

  constructor(message: string) {
    super(message);
    this.name = "UsageError";
    Object.defineProperty(this, usageErrorBrand, { value: true });
  }
}

/**
 * Whether `value` is a {@link UsageError} from any realm.
 *
 * @example
 * ```ts
 * isUsageError(new UsageError("--url is required")); // true
 * isUsageError(new Error("x")); // false
 * ```
 */
export function isUsageError(value: unknown): value is UsageError {
  return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[usageErrorBrand] === true;
}
