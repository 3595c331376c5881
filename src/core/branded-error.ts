/**
 * The one shape of docbase's errors for misuse: an Error subclass whose
 * instances carry the brand `Symbol.for("docbase.<name>")`, and a type guard
 * that checks the brand rather than the prototype, so that it also holds for
 * an error from another realm (another copy of docbase, a vm context, a
 * jsdom window), where `instanceof` fails.
 *
 * @module
 */

/**
 * The base class of the branded error `name`: a subclass of `Base` whose
 * constructor takes the message, sets `name`, and brands the instance with
 * `Symbol.for("docbase." + name)` (non-enumerable, so it stays out of logs
 * and spreads). Extend it with the public class, and pair that with
 * {@link brandGuard}. Name the instance type (`<TypeError>`) for a
 * `TypeError`: inferred, it is `Error`, which declarations would show.
 *
 * @example
 * ```ts
 * export class LinksError extends brandedError<TypeError>("LinksError", TypeError) {}
 * new LinksError("bad option").name; // "LinksError"
 * new LinksError("bad option") instanceof TypeError; // true
 * ```
 */
export function brandedError<E extends Error>(name: string, Base: new (message: string) => E): new (message: string) => E {
  const brand = Symbol.for(`docbase.${name}`);
  const Branded = class extends (Base as new (message: string) => Error) {
    constructor(message: string) {
      super(message);
      this.name = name;
      Object.defineProperty(this, brand, { value: true });
    }
  };
  return Branded as new (message: string) => E;
}

/**
 * The type guard of the branded error `name`: whether a value carries the
 * brand `Symbol.for("docbase." + name)`, whatever realm it comes from.
 *
 * @example
 * ```ts
 * export const isLinksError = brandGuard<LinksError>("LinksError");
 * isLinksError(new LinksError("x")); // true
 * isLinksError(new TypeError("x")); // false
 * ```
 */
export function brandGuard<E extends Error>(name: string): (value: unknown) => value is E {
  const brand = Symbol.for(`docbase.${name}`);
  return (value: unknown): value is E => typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[brand] === true;
}
