/**
 * Base-URL scopes and xml:base: an element's base URL is its scope's, the
 * document's or (with xml:base) that of its nearest inclusive ancestor
 * carrying xml:base, which resolves its attribute against its parent scope.
 * The {@link ScopeCache} maps elements to their scopes and keeps the scopes'
 * URLs current.
 *
 * How the cache stays right: elements are mapped along the ancestor path of
 * each element asked about, so that asking about every element of a
 * document costs one step per element; a scope recomputes its URL only when
 * its parent scope's URL changed (versions), and checks that at most once
 * per change (epochs). A mutation drops the scopes of the subtrees it moved
 * or restructured ({@link ScopeCache.forgetSubtree}), and nothing else; a
 * changed xml:base value or document base URL only marks scopes stale.
 *
 * @module
 */

import { basicURLParse, type OutputEncodingName, serializeURL, type URLRecord } from "../core/index.ts";
import { MATHML_NAMESPACE, SVG_NAMESPACE, XML_NAMESPACE } from "../html/index.ts";
import { forEachInclusiveDescendant, type LooseAdapter, rootOf } from "./tree-walk.ts";

/**
 * The context of the document a scope belongs to, as far as scopes go
 * (context.ts's `Context` is one).
 *
 * @example
 * ```ts
 * const scope = elementScope(contextImpl(context), element);
 * ```
 */
export interface ScopeOwner {
  readonly adapter: LooseAdapter;
  /** The document, or null for the inert document of template contents. */
  readonly documentNode: object | null;
  /** Whether xml:base is resolved in this document. */
  readonly xmlBase: boolean;
  /** The encoding URL queries are encoded with. */
  readonly outputEncoding: OutputEncodingName;
  /** The document scope: its URL is the document base URL. */
  readonly root: Scope;
  /** The element scopes of the document's family. */
  readonly scopes: ScopeCache;
  /** Whether the context observes its tree (which then reports the document's mutations only). */
  readonly observing: boolean;
  /** The context of `node`'s node document, `owner` being the one its tree records. */
  contextOfOwner(node: object, owner: object): ScopeOwner;
  /** The context of the document that the tree whose root is `root` belongs to. */
  contextOfRoot(root: object): ScopeOwner;
}

/**
 * A base-URL scope: the document's, or one xml:base element's.
 *
 * @example
 * ```ts
 * const documentScope = new Scope(context, null, null, documentBaseURL);
 * const xmlBaseScope = new Scope(context, element, documentScope, documentScope.url); // computed on first use
 * ```
 */
export class Scope {
  /** The document this scope belongs to. */
  readonly owner: ScopeOwner;
  /** The element carrying xml:base, or null for the document scope. */
  readonly element: object | null;
  /** The parent scope, or null for the document scope. */
  readonly parent: Scope | null;
  /** The scope's base URL (frozen; shared, never mutated). */
  url: Readonly<URLRecord>;
  /** Its serialization. */
  href: string;
  /** Bumped whenever `href` changes. */
  version = 0;
  /** The parent's version `url` was computed from (-1: compute again). */
  parentVersion = -1;
  /** The cache epoch at which the scope was last found current. */
  checked = -1;

  constructor(owner: ScopeOwner, element: object | null, parent: Scope | null, url: Readonly<URLRecord>) {
    this.owner = owner;
    this.element = element;
    this.parent = parent;
    this.url = url;
    this.href = serializeURL(url);
  }
}

/**
 * The scopes of a document's elements and of its template contents' inert
 * document (template contents move between the two with their templates),
 * with the epoch that tells whether a scope was checked since the last
 * change.
 *
 * @example
 * ```ts
 * const cache = new ScopeCache();
 * cache.scopes.set(element, scope);
 * cache.scopeURL(adapter, scope); // its URL now
 * ```
 */
export class ScopeCache {
  /** Element → scope. */
  readonly scopes = new WeakMap<object, Scope>();
  /** Bumped on every change that can make a scope stale. */
  epoch = 0;

  /**
   * The current URL of `scope`. An xml:base scope is recomputed when its
   * parent's URL changed since it was computed, and checked at most once
   * per epoch; the chain is walked with a loop, not recursion.
   *
   * The element base URL with xml:base (HTML 5, "base URLs"; XML Base §4.2):
   * the xml:base value resolved against the parent's base URL, with the
   * document's encoding. Deviation: XML Base does not say what a value that
   * cannot be resolved does; here it is ignored (the parent's base URL is
   * kept), as Gecko did when it supported xml:base.
   */
  scopeURL(adapter: LooseAdapter, scope: Scope): Readonly<URLRecord> {
    if (scope.parent === null) return scope.url;
    const epoch = this.epoch;
    if (scope.checked === epoch) return scope.url;
    const chain: Scope[] = [];
    for (let s: Scope = scope; s.parent !== null && s.checked !== epoch; s = s.parent) chain.push(s);
    for (let i = chain.length - 1; i >= 0; i--) {
      const s = chain[i]!;
      const parent = s.parent!;
      if (s.parentVersion !== parent.version) {
        s.parentVersion = parent.version;
        const value = xmlBaseOf(adapter, s.element!);
        const parsed = value === null ? null : basicURLParse(value, { base: parent.url, encoding: s.owner.outputEncoding });
        const url = parsed === null ? parent.url : Object.freeze(parsed);
        const href = parsed === null ? parent.href : serializeURL(url);
        if (href !== s.href) {
          s.url = url;
          s.href = href;
          s.version++;
        }
      }
      s.checked = epoch;
    }
    return scope.url;
  }

  /** The scope's serialized URL now. */
  scopeHref(adapter: LooseAdapter, scope: Scope): string {
    this.scopeURL(adapter, scope);
    return scope.href;
  }

  /**
   * The serialized base URL of an element under `parent` whose xml:base
   * value is `value` (null: none), resolved with `encoding`.
   */
  hrefUnder(adapter: LooseAdapter, parent: Scope, value: string | null, encoding: OutputEncodingName): string {
    const parentURL = this.scopeURL(adapter, parent);
    const parsed = value === null ? null : basicURLParse(value, { base: parentURL, encoding });
    return parsed === null ? parent.href : serializeURL(parsed);
  }

  /** Drops the cached scopes of `root`'s inclusive descendants (template contents included). */
  forgetSubtree(adapter: LooseAdapter, root: object): void {
    const scopes = this.scopes;
    forEachInclusiveDescendant(adapter, root, (node) => {
      if (adapter.isElementNode(node)) scopes.delete(node);
    });
  }
}

/**
 * The scope of `element`, asked by `context`: the document scope of its
 * node document, or, with xml:base, its nearest xml:base ancestor's.
 * Cached along the path from the element up to the first cached ancestor
 * (or the root).
 *
 * @example
 * ```ts
 * elementScope(context, link).href; // "https://example.com/feeds/" under <svg xml:base="/feeds/">
 * ```
 */
export function elementScope(context: ScopeOwner, element: object): Scope {
  const adapter = context.adapter;
  const owner = adapter.getOwnerDocument(element);
  if (owner !== null && owner !== context.documentNode) {
    const other = context.contextOfOwner(element, owner);
    if (other !== context) return elementScope(other, element);
  }
  // Optimisation: a tree that records node documents needs no walk without xml:base.
  if (owner !== null && !context.xmlBase) return context.root;

  const scopes = context.scopes.scopes;
  const cached = scopes.get(element);
  if (cached !== undefined) return cached;
  // Optimisation: in a walk in tree order the parent is cached already; no path to keep.
  const parentNode = adapter.getParentNode(element);
  if (parentNode !== null) {
    const parentScope = scopes.get(parentNode);
    if (parentScope !== undefined) {
      const scope =
        parentScope.owner.xmlBase && xmlBaseOf(adapter, element) !== null ? new Scope(parentScope.owner, element, parentScope, parentScope.url) : parentScope;
      scopes.set(element, scope);
      return scope;
    }
  }
  const path: object[] = [element];
  let node = element;
  let top: Scope;
  let cache = true;
  for (;;) {
    const parent = adapter.getParentNode(node);
    if (parent === null || !adapter.isElementNode(parent)) {
      const root = parent === null ? node : rootOf(adapter, parent);
      const other = owner !== null ? context : context.contextOfRoot(root);
      // Another document's elements are that document's business (and cache).
      if (other.scopes !== context.scopes) return elementScope(other, element);
      top = other.root;
      // An observed tree reports the mutations of the document only: a detached subtree's
      // would go unreported, so its scopes are not kept.
      cache = !context.observing || root === context.documentNode;
      break;
    }
    const parentScope = scopes.get(parent);
    if (parentScope !== undefined) {
      top = parentScope;
      break;
    }
    path.push(parent);
    node = parent;
  }
  let scope = top;
  const xmlBase = top.owner.xmlBase;
  for (let i = path.length - 1; i >= 0; i--) {
    const el = path[i]!;
    if (xmlBase && xmlBaseOf(adapter, el) !== null) scope = new Scope(scope.owner, el, scope, scope.url);
    if (cache) scopes.set(el, scope);
  }
  return scope;
}

/**
 * An element's xml:base value (https://www.w3.org/TR/xmlbase/#syntax), or
 * null: its attribute `base` in the XML namespace, or, on an SVG or MathML
 * element, an attribute named "xml:base" in no namespace, as today's HTML
 * parser makes it.
 *
 * The HTML Standard's parser put a parsed `xml:base` in the XML namespace
 * ("adjust foreign attributes", https://www.w3.org/TR/2014/REC-html5-20141028/syntax.html#adjust-foreign-attributes:
 * "xml:base | xml | base | XML namespace") until xml:base was dropped from
 * it; today's table no longer lists it, so the attribute keeps its name and
 * no namespace. On HTML elements the parser never adjusted it: there it is
 * an ordinary attribute. Deviation: an attribute named "xml:base" in no
 * namespace set by a script (`setAttribute("xml:base", …)` on an SVG
 * element) cannot be told from the parser's and counts too; when an element
 * has both, the one in the XML namespace is its xml:base.
 *
 * @example
 * ```ts
 * xmlBaseOf(adapter, svg); // <svg xml:base="icons/">: "icons/"
 * xmlBaseOf(adapter, div); // <div xml:base="icons/">: null (an ordinary attribute on an HTML element)
 * ```
 */
export function xmlBaseOf(adapter: LooseAdapter, element: object): string | null {
  const value = adapter.getAttribute(element, XML_NAMESPACE, "base");
  if (value !== null || !isForeignElement(adapter, element)) return value;
  return adapter.getAttribute(element, null, "xml:base");
}

/**
 * Whether `element` is in the SVG or the MathML namespace (foreign content,
 * where the HTML parser adjusts attributes).
 *
 * @example
 * ```ts
 * isForeignElement(adapter, svg); // true
 * ```
 */
export function isForeignElement(adapter: LooseAdapter, element: object): boolean {
  const namespace = adapter.getNamespaceURI(element);
  return namespace === SVG_NAMESPACE || namespace === MATHML_NAMESPACE;
}
