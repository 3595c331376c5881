/**
 * The per-element cache of the values docbase's getters return for the
 * elements of a window document's tree, with the hyperlink getters' fast
 * path.
 *
 * @module
 */

import type { URLRecord } from "../core/index.ts";
import { encodingParseAndSerializeURL, encodingParseURL } from "../document-base/index.ts";
import { type HyperlinkAttributeName, isHyperlinkElement } from "../url-utils/index.ts";
import { hyperlinkAttributeOfURL, isKeptHyperlinkURL, keepsHyperlinkURL } from "../url-utils/internal.ts";
import type { DocumentObserver } from "./document-observer.ts";
import type { KnownNodeDocument, NativeFunctions } from "./window-functions.ts";
import type { DocumentLike, DOMContext, ElementLike, NodeLike } from "./window.ts";

/**
 * A getter's computation by the layers, which the cache keeps the value of.
 *
 * @example
 * ```ts
 * const compute: Compute = (context, element) => getReflectedURL(context, element, "src");
 * ```
 */
export type Compute = (context: DOMContext, element: ElementLike) => string;

/**
 * The contexts the cache computes in: the window document's (null until it
 * is made), and that of any node's node document.
 *
 * @example
 * ```ts
 * const contexts: CacheContexts = { documentContext: context, contextOf: () => context };
 * ```
 */
export interface CacheContexts {
  readonly documentContext: DOMContext | null;
  contextOf(node: NodeLike): DOMContext;
}

/**
 * The installation, as the cache calls it before each read.
 *
 * @example
 * ```ts
 * const host: CacheHost = installation; // its sync() takes the pending mutation records
 * ```
 */
export interface CacheHost {
  /** Takes the pending mutation records (and the document's URL and encoding changes). */
  sync(): void;
}

/**
 * Whether an element is an HTML `a` or `area` element (the elements with
 * HTMLHyperlinkElementUtils), learned once per cache entry from its local
 * name and namespace, which never change.
 */
const UNKNOWN = 0;
const HYPERLINK = 1;
const OTHER = 2;

/** A cache entry's `url` while only its serialization has been made (see #hyperlinkAttribute). */
const NOT_PARSED: unique symbol = Symbol("not parsed");

/**
 * A value a patched getter computed, the content attribute (null: absent)
 * it was computed from, and the attribute epoch at which that attribute was
 * last seen to be the element's.
 */
interface CachedValue {
  readonly attribute: string | null;
  readonly value: string;
  epoch: number;
}

/**
 * What the getters cached for one element of the window's document, in the
 * window document's context. Every value is a function of the element's
 * kind, its node document (its base URL, encoding and URL) and one content
 * attribute of the element, which it is kept with (see #entryOf).
 */
interface CacheEntry {
  /**
   * The generation at which the element was last found in the document's
   * tree. While it is the current one, no node was inserted or removed and
   * the base URL did not change since: the element is still in the tree, so
   * its node document is still the window's document, with the same base
   * URL.
   */
  readonly generation: number;
  /** UNKNOWN, HYPERLINK or OTHER; it never changes. */
  kind: number;
  /**
   * For an `a` or `area`, on the fast path (see #hyperlinkAttribute): the
   * href attribute (null: absent) that `url` (null: absent or failure) and
   * `href` were computed from, undefined when nothing was, and the attribute
   * epoch at which it was last seen to be the element's.
   */
  hrefAttribute: string | null | undefined;
  epoch: number;
  /** {@link NOT_PARSED} while only `href` has been asked for (see #hyperlinkAttribute). */
  url: Readonly<URLRecord> | null | typeof NOT_PARSED;
  /** Optimisation: `url` serialized (the href getter's value), once asked for. */
  href: string | undefined;
  /** The values computed by url-utils, by IDL attribute name; null until one is. */
  values: Map<string, CachedValue> | null;
}

/**
 * Optimisation: the values read through the patched getters, per element.
 * Each of jsdom's own DOM calls costs a few hundred nanoseconds (wrapper
 * conversions, brand checks), and a getter of plain jsdom parses again and
 * looks for the base element again: a repeated read that makes no such
 * call (but for the observer's records), or one while the attributes are
 * not observed, is what makes docbase's getters fast. Only elements in the
 * window document's tree are cached: theirs are the insertions and removals
 * observed. Each read has the host take the pending mutation records first.
 *
 * @example
 * ```ts
 * const cache = new ReadCache(installation, document, native, known, contexts, false);
 * cache.observe(observer); // once the document's context is made
 * cache.read(img, "src", "src", (context, element) => getReflectedURL(context, element, "src"));
 * ```
 */
export class ReadCache {
  readonly #host: CacheHost;
  readonly #document: DocumentLike;
  readonly #native: NativeFunctions;
  readonly #known: KnownNodeDocument;
  readonly #contexts: CacheContexts;
  readonly #xmlBase: boolean;
  /** The window document's observer, while values are cached (nothing is in a window without one). */
  #observer: DocumentObserver | null = null;
  readonly #entries = new WeakMap<object, CacheEntry>();
  /** Bumped when nodes are inserted or removed, or the base URL changes: every entry is then stale. */
  #generation = 0;

  constructor(host: CacheHost, document: DocumentLike, native: NativeFunctions, known: KnownNodeDocument, contexts: CacheContexts, xmlBase: boolean) {
    this.#host = host;
    this.#document = document;
    this.#native = native;
    this.#known = known;
    this.#contexts = contexts;
    this.#xmlBase = xmlBase;
  }

  /** Starts caching, kept coherent by `observer` (null: stops). */
  observe(observer: DocumentObserver | null): void {
    this.#observer = observer;
  }

  /** Makes every entry stale: a node was inserted or removed, or the base URL or the document changed. */
  invalidate(): void {
    this.#generation++;
  }

  /**
   * A reflected URL attribute's getter (`img.src`, …: `compute`), whose
   * content attribute is `contentAttribute`: from the cache when the
   * attribute is the one the value was computed from, else computed (and
   * cached when the element is in the window document's tree).
   */
  read(element: ElementLike, name: string, contentAttribute: string, compute: Compute): string {
    this.#host.sync();
    const entry = this.#entryOf(element);
    if (entry === null) return compute(this.#contexts.contextOf(element), element);
    const observer = this.#observer!;
    const epoch = observer.epoch;
    const cached = entry.values?.get(name);
    if (cached !== undefined && cached.epoch === epoch) {
      observer.hit();
      return cached.value;
    }
    const attribute = this.#native.getAttributeNS.call(element, null, contentAttribute);
    if (cached !== undefined) {
      const same = cached.attribute === attribute;
      observer.compared(same);
      if (same) {
        cached.epoch = epoch;
        return cached.value;
      }
    }
    const value = this.#computeInTree(element, compute);
    (entry.values ??= new Map()).set(name, { attribute, value, epoch });
    return value;
  }

  /**
   * An HTMLHyperlinkElementUtils getter of an `a` or `area` element
   * (https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils):
   * url-utils' `getHyperlinkAttribute(context, element, name)` (which
   * `compute` is), cached as {@link read} caches, with the href attribute.
   */
  readHyperlink(element: ElementLike, name: HyperlinkAttributeName, compute: Compute): string {
    this.#host.sync();
    const entry = this.#entryOf(element);
    if (entry === null) return compute(this.#contexts.contextOf(element), element);
    const observer = this.#observer!;
    const epoch = observer.epoch;
    if (entry.hrefAttribute !== undefined && entry.epoch === epoch) {
      observer.hit();
      return this.#fromURL(entry, name);
    }
    const cached = entry.values?.get(name);
    if (cached !== undefined && cached.epoch === epoch) {
      observer.hit();
      return cached.value;
    }
    const href = this.#native.getAttributeNS.call(element, null, "href");
    if (entry.hrefAttribute === href) {
      observer.compared(true);
      entry.epoch = epoch;
      return this.#fromURL(entry, name);
    }
    if (cached !== undefined && cached.attribute === href) {
      observer.compared(true);
      cached.epoch = epoch;
      return cached.value;
    }
    if (entry.hrefAttribute !== undefined || cached !== undefined) observer.compared(false);
    return this.#hyperlinkAttribute(element, entry, name, href, compute);
  }

  /** A hyperlink getter's value from the url of the fast path (see #hyperlinkAttribute). */
  #fromURL(entry: CacheEntry, name: HyperlinkAttributeName): string {
    const href = entry.hrefAttribute as string | null;
    let url = entry.url;
    if (url === NOT_PARSED) {
      if (name === "href") return entry.href!;
      // The entry is of the current generation: the document's base URL is the one `href` was made with.
      url = entry.url = encodingParseURL(this.#contexts.documentContext!, href as string);
    }
    if (name === "href") return (entry.href ??= hyperlinkAttributeOfURL("href", url, href));
    return hyperlinkAttributeOfURL(name, url, href);
  }

  /**
   * The cache entry of `element` when it is in the window document's tree
   * (made now if it has none for the current generation), else null: the
   * values of other elements are not cached, as their insertions and
   * removals are not observed.
   *
   * A cached value is current when the entry is of the current generation
   * and the content attribute it was computed from is the element's now: it
   * is a function of the element's kind (constant), its node document (the
   * window's, as long as it is in the tree: no node was removed since) and
   * that document's base URL, encoding and URL (a change of the base URL
   * starts a new generation; the encoding is constant; a base element's href
   * is observed), and that one attribute. The attribute is compared when an
   * observed attribute changed anywhere in the document since it was last
   * seen (the attribute epoch moved on), or at every read while the
   * attributes are not observed; else it is known to be the same, and the
   * value is used without a call to jsdom.
   *
   * Optimisation: the records of attribute changes are counted, not matched
   * to the entries. Which element one concerns (`record.target`) costs jsdom
   * more than the attribute read it would save (it makes a cache object on
   * the record), and setting a link's href, then reading it, is the common
   * mutation.
   */
  #entryOf(element: ElementLike): CacheEntry | null {
    if (this.#contexts.documentContext === null || this.#observer === null) return null;
    const entry = this.#entries.get(element);
    // Optimisation: an entry of the current generation says that the element is still in the
    // tree (see CacheEntry.generation), without asking jsdom again.
    if (entry !== undefined && entry.generation === this.#generation) return entry;
    if (this.#native.getRootNode.call(element) !== this.#document) return null;
    const fresh: CacheEntry = {
      generation: this.#generation,
      kind: entry?.kind ?? UNKNOWN,
      hrefAttribute: undefined,
      epoch: 0,
      url: null,
      href: undefined,
      values: null,
    };
    this.#entries.set(element, fresh);
    return fresh;
  }

  /**
   * `compute(context, element)` for an element that #entryOf found in the
   * window document's tree, in the window document's context.
   *
   * Optimisation: while it runs, the installation's adapter answers the
   * element's node document (https://dom.spec.whatwg.org/#concept-node-document)
   * itself: the document-base and url-utils layers ask for it on every
   * computation (twice for a hyperlink attribute), and each `ownerDocument`
   * costs a call through jsdom's wrappers. The answer is right: a node in a
   * document's tree has that document as its node document, the element is
   * in the window document's tree (its entry is of the current generation),
   * and a getter's computation only reads the tree, so nothing moves it
   * before the answer is forgotten (in `finally`).
   */
  #computeInTree(element: ElementLike, compute: Compute): string {
    const known = this.#known;
    known.node = element;
    known.document = this.#document;
    try {
      return compute(this.#contexts.documentContext!, element);
    } finally {
      known.node = null;
      known.document = null;
    }
  }

  /**
   * An HTMLHyperlinkElementUtils getter's value for an element in the
   * window document's tree whose href attribute is `href`:
   * `getHyperlinkAttribute(context, element, name)`.
   *
   * Optimisation: every getter reads only the element's url after
   * "reinitialize url" and its href attribute
   * (https://html.spec.whatwg.org/multipage/links.html#reinitialise-url), and
   * that url is the href attribute encoding-parsed relative to the element's
   * node document, unless "reinitialize url" keeps the url the element
   * holds (url-utils' `keepsHyperlinkURL`, by its `isKeptHyperlinkURL`).
   * That url is computed here, kept in the cache entry for the element's
   * other getters, and handed to url-utils' own getter steps
   * (`hyperlinkAttributeOfURL`): no jsdom call but the attribute, which the
   * caller has read. url-utils' general path makes three more per element
   * (local name, namespace, node document) and keeps a state of its own.
   *
   * It is url-utils' value exactly: url-utils computes the value when the
   * element holds a url that is kept, and when the url just parsed is one,
   * so that it holds it from now on as the standard does. With xml:base on,
   * an element's base URL is its own, and url-utils computes every value;
   * it also throws for an element that is not an HTML `a` or `area` (a
   * getter called on another object).
   */
  #hyperlinkAttribute(element: ElementLike, entry: CacheEntry, name: HyperlinkAttributeName, href: string | null, compute: Compute): string {
    const context = this.#contexts.documentContext!;
    if (
      this.#xmlBase ||
      this.#kindOf(context, element, entry) !== HYPERLINK ||
      keepsHyperlinkURL(context as unknown as Parameters<typeof keepsHyperlinkURL>[0], element, href)
    ) {
      return this.#viaURLUtils(element, entry, name, href, compute);
    }
    // "Set the url", step 3: encoding-parse the href attribute relative to the node document
    // (the window's document: the element is in its tree).
    if (name === "href") {
      // Optimisation: the href getter's value is the url serialized, which
      // encodingParseAndSerializeURL makes without a record for the common
      // shapes; the record is parsed when another getter asks (#fromURL), or
      // now for a blob: URL, which may be one "reinitialize url" keeps.
      const serialized = href === null ? null : encodingParseAndSerializeURL(context, href);
      if (serialized === null || !serialized.startsWith("blob:")) {
        const value = serialized ?? hyperlinkAttributeOfURL("href", null, href);
        return this.#keep(entry, href, serialized === null ? null : NOT_PARSED, name, value);
      }
    }
    const url = href === null ? null : encodingParseURL(context, href);
    if (isKeptHyperlinkURL(url)) return this.#viaURLUtils(element, entry, name, href, compute);
    return this.#keep(entry, href, url, name, hyperlinkAttributeOfURL(name, url, href));
  }

  /** Keeps `value`, the getter `name`'s, in the entry, with the href attribute and url it came from. */
  #keep(entry: CacheEntry, href: string | null, url: CacheEntry["url"], name: HyperlinkAttributeName, value: string): string {
    entry.hrefAttribute = href;
    entry.epoch = this.#observer!.epoch;
    entry.url = url;
    entry.href = name === "href" ? value : undefined;
    return value;
  }

  /** A hyperlink getter's value computed by url-utils, kept in the entry with the href attribute `href`. */
  #viaURLUtils(element: ElementLike, entry: CacheEntry, name: HyperlinkAttributeName, href: string | null, compute: Compute): string {
    // The fast path's url, if any, is of another href attribute.
    entry.hrefAttribute = undefined;
    entry.url = null;
    entry.href = undefined;
    const value = this.#computeInTree(element, compute);
    (entry.values ??= new Map()).set(name, { attribute: href, value, epoch: this.#observer!.epoch });
    return value;
  }

  /** Whether `element` is an HTML `a` or `area` (see CacheEntry.kind), asked of jsdom once per entry. */
  #kindOf(context: DOMContext, element: ElementLike, entry: CacheEntry): number {
    if (entry.kind === UNKNOWN) entry.kind = isHyperlinkElement(context, element) ? HYPERLINK : OTHER;
    return entry.kind;
  }
}
