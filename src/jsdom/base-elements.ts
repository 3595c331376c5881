/**
 * Watching the base elements that can decide a window document's base URL
 * (the first with an href and those before it): their href changes are
 * reported to the document's context.
 *
 * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url
 *
 * @module
 */

import { type ElementTree, headOf, HTML_NAMESPACE } from "../html/index.ts";
import type { DocumentObserver } from "./document-observer.ts";
import type { DocumentLike, DOMContext, ElementLike } from "./window.ts";

/**
 * The base elements that count, with their href as last seen.
 *
 * @example
 * ```ts
 * const bases = new BaseElements(document, adapter, observer);
 * bases.observe(); // after parsing, and when a base element is inserted
 * bases.check(context); // after some href attribute changed
 * ```
 */
export class BaseElements {
  readonly #document: DocumentLike;
  readonly #tree: ElementTree<object>;
  readonly #observer: DocumentObserver;
  /** The base elements that count, in tree order, with their href as last seen; the last has an href unless none has. */
  #bases = new Map<ElementLike, string | null>();
  /** The first base element with an href as #observe last found it, or null. */
  #first: ElementLike | null = null;

  constructor(document: DocumentLike, tree: ElementTree<object>, observer: DocumentObserver) {
    this.#document = document;
    this.#tree = tree;
    this.#observer = observer;
  }

  /**
   * Observes the href of the first base element with an href and of those
   * before it (one may get an href), or of all when none has one. It runs
   * again whenever that set may change (an href changed, a base inserted, the
   * first one removed).
   *
   * Optimisation: only the head is searched when it holds one with an href.
   */
  observe(): void {
    const observer = this.#observer;
    let first: ElementLike | null = null;
    const found = new Map<ElementLike, string | null>();
    const observe = (bases: ArrayLike<ElementLike>): boolean => {
      found.clear();
      for (let i = 0; i < bases.length; i++) {
        const base = bases[i]!;
        observer.observeBase(base);
        const href = base.getAttributeNS(null, "href");
        found.set(base, href);
        if (href !== null) {
          first = base;
          return true;
        }
      }
      return false;
    };
    const head = headOf(this.#tree, this.#document) as ElementLike | null;
    if (head === null || !observe(head.getElementsByTagNameNS(HTML_NAMESPACE, "base"))) {
      observe(this.#document.getElementsByTagNameNS(HTML_NAMESPACE, "base"));
    }
    this.#bases = found;
    this.#first = first;
  }

  /**
   * Reports to `context` the counted base elements whose href changed, and
   * finds them again if one did.
   *
   * Optimisation: the few counted base elements are looked at instead of
   * matching the records to their elements.
   */
  check(context: DOMContext | null): void {
    let changed = false;
    for (const [base, known] of this.#bases) {
      if (base.getAttributeNS(null, "href") === known) continue;
      changed = true;
      // https://dom.spec.whatwg.org/#concept-element-attributes-change-ext, as a record would report it.
      context?.attributeChanged(base, null, "href", known);
    }
    if (changed) this.observe();
  }

  /** Whether the first base element with an href has left the document (then those after it count). */
  firstRemoved(): boolean {
    return this.#first !== null && this.#first.getRootNode() !== this.#document;
  }

  clear(): void {
    this.#first = null;
    this.#bases.clear();
  }
}
