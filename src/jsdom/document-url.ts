/**
 * Following a window document's URL through jsdom's changes of it
 * (pushState, replaceState, fragment navigations, traversals, `reconfigure`)
 * by its URL record and `_clearBaseURLCache`, the one jsdom internal docbase uses.
 *
 * @module
 */

import type { DocumentLike, DOMContext, WindowLike } from "./window.ts";

/** The part of jsdom's internal Document object (`window._document`) read to follow the URL. */
interface DocumentImplLike {
  /** A new object whenever the document's URL changes. */
  readonly _URL: unknown;
  /** Called by jsdom right after every change of `_URL` (and of a base element's href). */
  _clearBaseURLCache?: unknown;
}

/** The notification wrapped into each document's `_clearBaseURLCache` (null once uninstalled). */
const documentURLHooks = new WeakMap<object, { notify: (() => void) | null }>();

/** jsdom's internal Document object behind `window.document`, when it has a URL record, else null. */
function documentImplOf(window: WindowLike): DocumentImplLike | null {
  const impl = window["_document"];
  if (impl === null || typeof impl !== "object" || !("_URL" in impl)) return null;
  const url = (impl as DocumentImplLike)._URL;
  return url !== null && typeof url === "object" ? (impl as DocumentImplLike) : null;
}

/**
 * What a {@link DocumentURLWatch} tells its installation when jsdom changes
 * the document's URL.
 *
 * @example
 * ```ts
 * const events: DocumentURLEvents = { changed: () => (pending |= URL_CHANGED), task: () => installation.sync() };
 * ```
 */
export interface DocumentURLEvents {
  /** The URL changed: the next read takes it. */
  changed(): void;
  /** A microtask after a change: take it without a read. */
  task(): void;
}

/**
 * The window document's URL as its context last took it, and the hook that
 * hears of jsdom's changes of it.
 *
 * @example
 * ```ts
 * const watch = new DocumentURLWatch(window, false, events);
 * watch.take(); // when the document's context is made
 * if (watch.changed()) watch.follow(context); // at a read, after history.pushState()
 * ```
 */
export class DocumentURLWatch {
  readonly #window: WindowLike;
  readonly #document: DocumentLike;
  /** When it has a URL record (jsdom 31), else null. */
  readonly #impl: DocumentImplLike | null;
  /** The document keeps its own URL whatever jsdom's is (about:srcdoc). */
  readonly #keepsURL: boolean;
  readonly #events: DocumentURLEvents;
  /** jsdom's URL record as last taken (compared by identity), or the serialized URL without one. */
  #taken: unknown = undefined;
  /** Whether take() ran: until then, a change is nothing to tell. */
  #following = false;
  /** Whether a microtask that takes a changed URL is queued. */
  #taskQueued = false;
  /** The window's own `queueMicrotask` (scripts may replace it). */
  readonly #queueMicrotask: ((this: unknown, task: () => void) => void) | undefined;
  /** Whether jsdom tells of every change; when false, every read compares the URL. */
  readonly hooked: boolean;

  constructor(window: WindowLike, keepsURL: boolean, events: DocumentURLEvents) {
    this.#window = window;
    this.#document = window.document;
    this.#impl = documentImplOf(window);
    this.#keepsURL = keepsURL;
    this.#events = events;
    const queue = window["queueMicrotask"];
    this.#queueMicrotask = typeof queue === "function" ? (queue as (this: unknown, task: () => void) => void) : undefined;
    this.hooked = this.#hook();
  }

  take(): void {
    this.#taken = this.#token();
    this.#following = true;
  }

  /** Whether the document's URL is another than the one taken. */
  changed(): boolean {
    return this.#token() !== this.#taken;
  }

  /**
   * Takes a change of the document's URL (pushState, replaceState, a fragment
   * navigation, a traversal, `reconfigure({ url })`): the document base URL
   * follows through the fallback base URL when there is no `<base href>`.
   *
   * Deviation: an about:srcdoc document keeps its URL (see frames.ts), as
   * jsdom's pushState() in it works on about:blank.
   */
  follow(context: DOMContext | null): void {
    this.#taken = this.#token();
    if (context === null || this.#keepsURL) return;
    const url = this.#document.URL;
    if (url !== context.url) context.urlChanged(url);
  }

  /** Stops telling of changes (the hook stays, calling jsdom's function alone). */
  dispose(): void {
    const hook = this.#impl === null ? undefined : documentURLHooks.get(this.#impl);
    if (hook !== undefined) hook.notify = null;
  }

  /** The document's URL as #taken keeps it: one property read, no call. */
  #token(): unknown {
    const impl = this.#impl;
    return impl !== null ? impl._URL : this.#document.URL;
  }

  /**
   * Wraps the document's `_clearBaseURLCache()`, which jsdom calls after each
   * change of its URL, so that the next read takes the change, and a
   * microtask takes it for the onBaseURLChange listeners. False for a window
   * without that function.
   */
  #hook(): boolean {
    const impl = this.#impl as (DocumentImplLike & Record<string, unknown>) | null;
    if (impl === null || typeof impl._clearBaseURLCache !== "function") return false;
    const notify = (): void => {
      // A base element's change calls it too, and nothing is followed before take().
      if (!this.#following || !this.changed()) return;
      this.#events.changed();
      if (this.#taskQueued) return;
      this.#taskQueued = true;
      this.#queue(() => {
        this.#taskQueued = false;
        this.#events.task();
      });
    };
    const hook = documentURLHooks.get(impl);
    if (hook !== undefined) {
      hook.notify = notify;
      return true;
    }
    const slot: { notify: (() => void) | null } = { notify };
    documentURLHooks.set(impl, slot);
    const original = impl._clearBaseURLCache as (this: unknown, ...args: unknown[]) => unknown;
    // Optimisation: dispose() leaves it in place; deleting it would make the object a slower dictionary.
    Object.defineProperty(impl, "_clearBaseURLCache", {
      configurable: true,
      enumerable: false,
      writable: true,
      value: function (this: unknown, ...args: unknown[]): unknown {
        const result = original.apply(this, args);
        slot.notify?.();
        return result;
      },
    });
    return true;
  }

  /** Queues `task` with the window's own queueMicrotask (errors reported to the window), else the platform's. */
  #queue(task: () => void): void {
    const queue = this.#queueMicrotask;
    if (queue !== undefined) queue.call(this.#window, task);
    else queueMicrotask(task);
  }
}
