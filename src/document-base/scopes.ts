/**
 * Base-URL scopes and xml:base: an element's base URL is its scope's, the
 * document's or (with xml:base) that of its nearest inclusive ancestor
 * carrying xml:base. The {@link ScopeCache} maps elements to scopes and keeps
 * their URLs current: a scope recomputes only when its parent's URL changed
 * (versions), checked at most once per change (epochs); a mutation drops the
 * scopes of the subtrees it moved ({@link ScopeCache.forgetSubtree}).
 *
 * @module
 */

import { basicURLParse, type OutputEncodingName, serializeURL, type URLRecord } from "../core/index.ts";
import { MATHML_NAMESPACE, SVG_NAMESPACE, XML_NAMESPACE } from "../html/index.ts";
import { forEachInclusiveDescendant, type LooseAdapter, rootOf } from "./tree-walk.ts";

/**
 * The context of the document a scope belongs to, as far as scopes go
 * (context.ts's `Context` is one).
 * @example
 * ```ts
 * const scope = elementScope(contextImpl(context), element);
 * ```
 */
export interface ScopeOwner {
  readonly adapter: LooseAdapter;
  /** The document, or null for the inert document of template contents. */
  readonly documentNode: object | null;
  readonly xmlBase: boolean;
  readonly outputEncoding: OutputEncodingName;
  /** Its URL is the document base URL. */
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
  readonly owner: ScopeOwner;
  /** The element carrying xml:base; null for the document scope. */
  readonly element: object | null;
  readonly parent: Scope | null;
  /** Frozen and shared. */
  url: Readonly<URLRecord>;
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
 * document (template contents move between the two).
 * @example
 * ```ts
 * const cache = new ScopeCache();
 * cache.scopes.set(element, scope);
 * cache.scopeURL(adapter, scope); // its URL now
 * ```
 */
export class ScopeCache {
  readonly scopes = new WeakMap<object, Scope>();
  /** Bumped on every change that can make a scope stale. */
  epoch = 0;

  /**
   * The current URL of `scope`: an xml:base scope is recomputed when its
   * parent's URL changed, checked at most once per epoch (HTML 5, "base
   * URLs"; XML Base §4.2). Deviation: a value that does not resolve is
   * ignored (XML Base does not say), as Gecko did.
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

  scopeHref(adapter: LooseAdapter, scope: Scope): string {
    this.scopeURL(adapter, scope);
    return scope.href;
  }

  /** The serialized base URL of an element under `parent` whose xml:base is `value` (null: none). */
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
 * The scope of `element`, asked by `context`: its node document's, or with
 * xml:base its nearest xml:base ancestor's; cached along the path up to the
 * first cached ancestor.
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
      // An observed tree reports the document's mutations only: a detached subtree's scopes are not kept.
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
 * null: its attribute `base` in the XML namespace or, on an SVG or MathML
 * element, "xml:base" in no namespace, as today's parser leaves it (HTML 5's
 * "adjust foreign attributes" put it in the XML namespace). On HTML elements
 * it is an ordinary attribute. Deviation: a script's `setAttribute("xml:base",
 * …)` on SVG counts too; the XML namespace's wins when both are there.
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
