/**
 * The per-element cache of the values docbase's getters return for the
 * elements of a window document's tree, with the hyperlink getters' fast path.
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

/** An entry's `kind`: whether the element is an HTML `a` or `area`; its name and namespace never change. */
const UNKNOWN = 0;
const HYPERLINK = 1;
const OTHER = 2;

/** An entry's `url` while only its serialization has been made. */
const NOT_PARSED: unique symbol = Symbol("not parsed");

/** A value a patched getter computed, the content attribute it came from (null: absent), and the attribute epoch it was last checked at. */
interface CachedValue {
  readonly attribute: string | null;
  readonly value: string;
  epoch: number;
}

/**
 * What the getters cached for one element of the window's document. Every
 * value is a function of the element's kind, its node document and one
 * content attribute (see #entryOf).
 */
interface CacheEntry {
  /**
   * The generation the element was last found in the tree at. While it is
   * current, no node was inserted or removed and the base URL did not change,
   * so its node document and base URL are the same.
   */
  readonly generation: number;
  kind: number;
  /**
   * The fast path's (see #hyperlinkAttribute) href attribute (null: absent)
   * that `url` and `href` came from, undefined when none, and its epoch.
   */
  hrefAttribute: string | null | undefined;
  epoch: number;
  /** {@link NOT_PARSED} while only `href` has been asked for (see #hyperlinkAttribute). */
  url: Readonly<URLRecord> | null | typeof NOT_PARSED;
  /** Optimisation: `url` serialized, once asked for. */
  href: string | undefined;
  /** The values computed by url-utils, by IDL attribute name. */
  values: Map<string, CachedValue> | null;
}

/**
 * Optimisation: the values read through the patched getters, per element of
 * the window document's tree (the only one whose insertions and removals are
 * observed). A plain jsdom getter parses again and finds the base element
 * again, and each jsdom call crosses its wrappers; a repeated read here makes
 * no such call. Each read has the host take the pending mutation records first.
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
  /** The window document's observer, while values are cached. */
  #observer: DocumentObserver | null = null;
  readonly #entries = new WeakMap<object, CacheEntry>();
  /** Bumped when nodes are inserted or removed or the base URL changes: every entry is then stale. */
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
   * A reflected URL attribute's getter (`compute`) whose content attribute is
   * `contentAttribute`: cached while that attribute is unchanged.
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
   * An HTMLHyperlinkElementUtils getter
   * (https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils),
   * `compute` being url-utils' `getHyperlinkAttribute`, cached with the href attribute.
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

  /** A hyperlink getter's value from the fast path's url. */
  #fromURL(entry: CacheEntry, name: HyperlinkAttributeName): string {
    const href = entry.hrefAttribute as string | null;
    let url = entry.url;
    if (url === NOT_PARSED) {
      if (name === "href") return entry.href!;
      // The entry is current: the base URL is the one `href` was made with.
      url = entry.url = encodingParseURL(this.#contexts.documentContext!, href as string);
    }
    if (name === "href") return (entry.href ??= hyperlinkAttributeOfURL("href", url, href));
    return hyperlinkAttributeOfURL(name, url, href);
  }

  /**
   * The entry of `element` when it is in the window document's tree (made
   * afresh for a new generation), else null.
   *
   * A cached value is current while the entry's generation is and its
   * content attribute is unchanged: the element's kind is constant, its node
   * document stays the window's while no node is removed, that document's
   * base URL changes start a new generation, its encoding is constant. The
   * attribute is compared only when an observed attribute changed since
   * (the epoch moved on), or at every read while attributes are not observed.
   *
   * Optimisation: attribute records are counted, not matched to entries:
   * `record.target` costs jsdom more than the attribute read it would save.
   */
  #entryOf(element: ElementLike): CacheEntry | null {
    if (this.#contexts.documentContext === null || this.#observer === null) return null;
    const entry = this.#entries.get(element);
    // Optimisation: a current entry says that the element is still in the tree.
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
   * `compute(context, element)` in the window document's context, for an
   * element #entryOf found in its tree.
   *
   * Optimisation: meanwhile the adapter answers the element's node document
   * itself, saving an `ownerDocument` call per question. The answer is right:
   * the element is in the window document's tree, and a getter only reads.
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
   * `getHyperlinkAttribute(context, element, name)` for an element in the
   * window document's tree whose href attribute is `href`.
   *
   * Optimisation: the getters read only the url after "reinitialize url" and
   * href, and that url is href encoding-parsed against the node document
   * unless url-utils' `keepsHyperlinkURL` says it is kept. It is parsed here,
   * kept for the element's other getters, and handed to url-utils' getter
   * steps (`hyperlinkAttributeOfURL`), saving url-utils' three jsdom calls
   * per element. url-utils computes the value itself with xml:base on, for
   * an element other than `a` or `area`, and for a kept blob: url.
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
    // "Set the url", step 3: encoding-parse href relative to the node document (the window's).
    if (name === "href") {
      // Optimisation: encodingParseAndSerializeURL makes href's value without a record for
      // the common shapes; the record is parsed when another getter asks, or now for a
      // blob: URL, which "reinitialize url" may keep.
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

  /** Keeps `value`, the getter `name`'s, with the href attribute and url it came from. */
  #keep(entry: CacheEntry, href: string | null, url: CacheEntry["url"], name: HyperlinkAttributeName, value: string): string {
    entry.hrefAttribute = href;
    entry.epoch = this.#observer!.epoch;
    entry.url = url;
    entry.href = name === "href" ? value : undefined;
    return value;
  }

  /** A hyperlink getter's value computed by url-utils, kept with the href attribute. */
  #viaURLUtils(element: ElementLike, entry: CacheEntry, name: HyperlinkAttributeName, href: string | null, compute: Compute): string {
    // The fast path's url, if any, is of another href attribute.
    entry.hrefAttribute = undefined;
    entry.url = null;
    entry.href = undefined;
    const value = this.#computeInTree(element, compute);
    (entry.values ??= new Map()).set(name, { attribute: href, value, epoch: this.#observer!.epoch });
    return value;
  }

  /** Whether `element` is an HTML `a` or `area`, asked of jsdom once per entry. */
  #kindOf(context: DOMContext, element: ElementLike, entry: CacheEntry): number {
    if (entry.kind === UNKNOWN) entry.kind = isHyperlinkElement(context, element) ? HYPERLINK : OTHER;
    return entry.kind;
  }
}
