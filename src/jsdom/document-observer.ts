/**
 * The MutationObserver of a window's document: its tree, the attributes of
 * its iframes and base elements, and every element's URL content attributes
 * while observing them pays; with the attribute epoch the read cache uses.
 *
 * @module
 */

import { reflectedURLAttributes } from "../url-utils/index.ts";
import type { NativeFunctions } from "./window-functions.ts";
import type { DocumentLike, ElementLike, MutationObserverLike, MutationRecordShape, WindowLike } from "./window.ts";

/** The content attributes the cached values are computed from: href, and every reflected URL attribute's. */
const urlAttributes: readonly string[] = [...new Set(["href", ...reflectedURLAttributes.map((entry) => entry.contentAttribute)])];

/** What is observed on an iframe: the attributes that navigate it. */
const frameAttributes = { attributes: true, attributeFilter: ["srcdoc", "src"] };

/** What is observed on a base element. */
const baseAttributes = { attributes: true, attributeFilter: ["href"] };

/**
 * The window document's observer.
 *
 * Optimisation: observing every element's URL attributes makes a record per
 * change (about eight attribute reads' worth) and lets a read at the current
 * epoch skip jsdom; not observing them makes every read compare its
 * attribute. It starts observed, stops when the records cost more than the
 * reads they spare (counting at most 256 reads, with a margin of 64), and
 * starts again after 64 reads in a row whose attribute had not changed.
 * Either way every value is current. With xml:base, all are observed.
 *
 * @example
 * ```ts
 * const observer = DocumentObserver.create(window, nativeFunctions(window), false, (records) => process(records));
 * observer?.observeFrame(iframe);
 * const records = observer?.takeRecords();
 * ```
 */
export class DocumentObserver {
  readonly #observer: MutationObserverLike;
  readonly #document: DocumentLike;
  readonly #xmlBase: boolean;
  readonly #takeRecords: NativeFunctions["takeRecords"];
  /** Whether the URL attributes of every element are observed. */
  #trusting = false;
  /** The balance between the records' cost and the reads they spare. */
  #credit = 0;
  /**
   * Bumped when an observed URL attribute changed anywhere, and at every read
   * while they are not observed: a value seen at the current epoch is current.
   */
  epoch = 0;

  /** The window document's observer, or null in a window without MutationObserver. */
  static create(window: WindowLike, native: NativeFunctions, xmlBase: boolean, onRecords: (records: ArrayLike<MutationRecordShape>) => void): DocumentObserver | null {
    const Observer = window.MutationObserver;
    if (typeof Observer !== "function") return null;
    return new DocumentObserver(new Observer(onRecords), window.document, native, xmlBase);
  }

  private constructor(observer: MutationObserverLike, document: DocumentLike, native: NativeFunctions, xmlBase: boolean) {
    this.#observer = observer;
    this.#document = document;
    this.#takeRecords = native.takeRecords;
    this.#xmlBase = xmlBase;
    this.#observeDocument(true);
  }

  /** Observes the attributes that navigate `iframe`. */
  observeFrame(iframe: ElementLike): void {
    this.#observer.observe(iframe, frameAttributes);
  }

  /** Observes the href of a base element. */
  observeBase(base: ElementLike): void {
    this.#observer.observe(base, baseAttributes);
  }

  /** The pending records, taken synchronously. */
  takeRecords(): ArrayLike<MutationRecordShape> {
    return this.#takeRecords.call(this.#observer);
  }

  /** After the records are taken for a read: unobserved, any attribute may have changed since the last read. */
  beforeRead(): void {
    if (!this.#trusting) this.epoch++;
  }

  /** `count` records of attribute changes. */
  attributesChanged(count: number): void {
    this.epoch++;
    if (!this.#trusting) return;
    this.#credit -= 8 * count;
    if (this.#credit < -64) this.#adapt(false);
  }

  /** A read served from the cache without a call to jsdom, thanks to the observed epoch. */
  hit(): void {
    if (this.#credit < 256) this.#credit++;
  }

  /** A read that compared its element's attribute: `same` when it had not changed, which an observed epoch would have spared. */
  compared(same: boolean): void {
    if (this.#trusting) return;
    if (!same) this.#credit = 0;
    else if (++this.#credit >= 64) this.#adapt(true);
  }

  disconnect(): void {
    this.#observer.disconnect();
  }

  #adapt(observe: boolean): void {
    if (this.#trusting === observe || this.#xmlBase) return;
    this.#credit = 0;
    // What was cached before is checked once more: unobserved, an attribute may have changed.
    this.epoch++;
    this.#observeDocument(observe);
  }

  /** (Re)registers the observer on the document, reporting the URL attributes of every element or not. */
  #observeDocument(attributes: boolean): void {
    this.#trusting = attributes;
    this.#observer.observe(
      this.#document,
      // An attributeFilter never matches a namespaced attribute, so xml:base needs them all.
      this.#xmlBase
        ? { subtree: true, childList: true, attributes: true, attributeOldValue: true }
        : attributes
          ? { subtree: true, childList: true, attributes: true, attributeFilter: urlAttributes }
          : { subtree: true, childList: true },
    );
  }
}
