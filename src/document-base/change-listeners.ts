/**
 * The listeners of a document context's base-URL changes, and how a change
 * reaches them: once per change, every listener even when one throws.
 *
 * @module
 */

import type { BaseURLChange, BaseURLChangeListener, BaseURLChangeReason, DocumentContext } from "./document-context-types.ts";
import type { LooseMap } from "./tree-walk.ts";

/**
 * A set of {@link BaseURLChangeListener}s.
 *
 * @example
 * ```ts
 * const listeners = new ChangeListeners();
 * const remove = listeners.add((change) => console.log(change.newBaseURL));
 * listeners.emit(context, "xml-base", [element], "https://example.com/", "https://example.com/feeds/");
 * remove();
 * ```
 */
export class ChangeListeners {
  readonly #listeners = new Set<BaseURLChangeListener<LooseMap>>();

  /** Adds `listener`; returns a function that removes it. */
  add(listener: BaseURLChangeListener<LooseMap>): () => void {
    // A listener added twice is called twice, as with addEventListener of distinct functions:
    // wrap it so that each registration is its own entry.
    const entry: BaseURLChangeListener<LooseMap> = (change) => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }

  /**
   * Calls every listener with one change, reported by `context`. If a
   * listener throws, the others still run, then the error is rethrown (an
   * `AggregateError` when several threw).
   */
  emit(context: DocumentContext<LooseMap>, reason: BaseURLChangeReason, roots: readonly object[], oldBaseURL: string, newBaseURL: string): void {
    if (this.#listeners.size === 0) return;
    const change: BaseURLChange<LooseMap> = Object.freeze({ reason, roots: Object.freeze([...roots]), oldBaseURL, newBaseURL, context });
    const errors: unknown[] = [];
    for (const listener of [...this.#listeners]) {
      try {
        listener(change);
      } catch (error) {
        errors.push(error);
      }
    }
    if (errors.length === 1) throw errors[0];
    if (errors.length > 1) throw new AggregateError(errors, "Several base URL change listeners threw");
  }
}
