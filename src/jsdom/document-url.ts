/**
 * Following a window document's URL through jsdom's changes of it
 * (pushState, replaceState, fragment navigations, traversals,
 * `reconfigure`), by its URL record and its `_clearBaseURLCache`, the one
 * jsdom internal docbase uses.
 *
 * @module
 */

import type { DocumentLike, DOMContext, WindowLike } from "./window.ts";

/**
 * The part of jsdom's internal Document object (`window._document`, the
 * implementation behind `window.document`) that is read to follow the
 * document's URL.
 */
interface DocumentImplLike {
  /** jsdom's URL record of the document: a new object whenever the document's URL changes. */
  readonly _URL: unknown;
  /** Called by jsdom right after every change of `_URL` (and of a base element's href). */
  _clearBaseURLCache?: unknown;
}

/**
 * The notification docbase added to a jsdom document's `_clearBaseURLCache`
 * (see {@link DocumentURLWatch}), by document implementation object;
 * `notify` is the installation's, or null once it is uninstalled.
 */
const documentURLHooks = new WeakMap<object, { notify: (() => void) | null }>();

/**
 * jsdom's internal Document object behind `window.document`
 * (`window._document`), when it has a URL record, else null.
 */
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
  /** jsdom's internal Document object, when it has a URL record (jsdom 31), else null. */
  readonly #impl: DocumentImplLike | null;
  /** Whether the document keeps its own URL whatever jsdom's is (about:srcdoc). */
  readonly #keepsURL: boolean;
  readonly #events: DocumentURLEvents;
  /**
   * The document's URL as the context last took it: jsdom's URL record (compared by identity:
   * jsdom makes a new record whenever the URL changes), or, in a window without one, the
   * serialized URL.
   */
  #taken: unknown = undefined;
  /** Whether take() ran: until then, a change is nothing to tell. */
  #following = false;
  /** Whether a microtask that takes a changed URL is queued. */
  #taskQueued = false;
  /** The window's own `queueMicrotask`, as installed (scripts may replace it), if it has one. */
  readonly #queueMicrotask: ((this: unknown, task: () => void) => void) | undefined;
  /** Whether jsdom tells of every change (see #hook); when false, every read compares the URL. */
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

  /** Takes the document's URL as the context's (when the context is made). */
  take(): void {
    this.#taken = this.#token();
    this.#following = true;
  }

  /** Whether the document's URL is another than the one taken. */
  changed(): boolean {
    return this.#token() !== this.#taken;
  }

  /**
   * The document's URL changed since `context` took it: history.pushState()
   * and replaceState() (https://html.spec.whatwg.org/multipage/nav-history-apis.html#url-and-history-update-steps),
   * a fragment navigation (`location.hash = …`,
   * https://html.spec.whatwg.org/multipage/browsing-the-web.html#scroll-to-fragid),
   * a history traversal, or JSDOM's `reconfigure({ url })`. The fallback base
   * URL is the document's URL (unless it matches about:blank or is an iframe
   * srcdoc document's), so the document base URL follows when there is no
   * `<base href>`; the context reports the change, if any.
   *
   * Deviation: an about:srcdoc document keeps its URL: docbase gives it
   * about:srcdoc over jsdom's about:blank (see frames.ts), and jsdom's
   * pushState() in it works on about:blank.
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

  /**
   * The document's URL, as #taken keeps it: jsdom's URL record (one
   * property read, no call), or the serialized URL in a window without one.
   */
  #token(): unknown {
    const impl = this.#impl;
    return impl !== null ? impl._URL : this.#document.URL;
  }

  /**
   * Hears of jsdom's changes of the document's URL as they happen: jsdom
   * calls its document's `_clearBaseURLCache()` right after each one, as its
   * own base URL cache would be stale otherwise. docbase wraps that function
   * on the document's internal object (an own property: the object stays as
   * fast as it was) so that the next read takes the change, and a microtask
   * takes it without a read, as a MutationObserver's records are taken, for
   * the listeners of onBaseURLChange. Returns false for a window without
   * that function.
   */
  #hook(): boolean {
    const impl = this.#impl as (DocumentImplLike & Record<string, unknown>) | null;
    if (impl === null || typeof impl._clearBaseURLCache !== "function") return false;
    const notify = (): void => {
      // A base element's change calls it too; and the URL is taken when the document is activated.
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
    // Optimisation: dispose() does not delete it again (that would turn the object into a
    // slower dictionary-mode one); it stays, calling jsdom's function and nothing else.
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

  /**
   * Queues `task` as the window's own queueMicrotask does (an exception is
   * reported to the window, as a MutationObserver callback's is), else as
   * the platform's.
   */
  #queue(task: () => void): void {
    const queue = this.#queueMicrotask;
    if (queue !== undefined) queue.call(this.#window, task);
    else queueMicrotask(task);
  }
}
