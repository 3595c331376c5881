/**
 * The listeners of `Installation.onBaseURLChange`: a document context's
 * base-URL change, as the listeners of its window's installation and of the
 * installations of the frames above it receive it.
 *
 * @module
 */

import type { BaseURLChange, DOMTreeAdapterMap } from "../document-base/index.ts";
import type { JSDOMBaseURLChange } from "./installation.ts";
import type { DocumentLike, NodeLike } from "./window.ts";

/**
 * One installation's listeners; a frame's hand each change on to their
 * container's.
 *
 * @example
 * ```ts
 * const listeners = new BaseURLChangeListeners(null);
 * const remove = listeners.add((change) => console.log(change.newBaseURL));
 * context.onBaseURLChange((change) => listeners.emit(change));
 * remove();
 * ```
 */
export class BaseURLChangeListeners {
  readonly #listeners = new Set<(change: JSDOMBaseURLChange) => void>();
  /** The container's listeners (a frame's installation), or null. */
  readonly #parent: BaseURLChangeListeners | null;

  constructor(parent: BaseURLChangeListeners | null) {
    this.#parent = parent;
  }

  /** Adds `listener`; returns a function that removes it. */
  add(listener: (change: JSDOMBaseURLChange) => void): () => void {
    const entry = (change: JSDOMBaseURLChange): void => listener(change);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Reports a context's change to every listener, then to the container's. */
  emit(change: BaseURLChange<DOMTreeAdapterMap>): void {
    this.#dispatch({
      reason: change.reason,
      document: change.context.document as DocumentLike,
      roots: change.roots as readonly NodeLike[],
      oldBaseURL: change.oldBaseURL,
      newBaseURL: change.newBaseURL,
    });
  }

  /** Calls every listener, each even when one before it throws; then rethrows the first failure. */
  #dispatch(event: JSDOMBaseURLChange): void {
    let failure: unknown = null;
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch (error) {
        failure ??= error;
      }
    }
    // A frame's changes are its container installation's too.
    if (this.#parent !== null) this.#parent.#dispatch(event);
    if (failure !== null) throw failure;
  }

  /** Removes every listener. */
  clear(): void {
    this.#listeners.clear();
  }
}
