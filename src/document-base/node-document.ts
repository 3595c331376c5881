/**
 * Which document a node belongs to (https://dom.spec.whatwg.org/#concept-node-document)
 * when the tree does not say: template contents belong to an inert
 * document, and a declarative shadow root that the parser kept as a
 * template's contents belongs to its host's document. One
 * {@link NodeDocuments} serves a document and the inert document of its
 * template contents.
 *
 * @module
 */

import { HTML_NAMESPACE, shadowRootModeState } from "../html/index.ts";
import { declarativeShadowRootTemplateOf } from "./declarative-shadow-root.ts";
import type { DocumentBaseTreeAdapter } from "./tree-adapter.ts";
import { forEachInclusiveDescendant, type LooseAdapter, rootOf } from "./tree-walk.ts";

/**
 * The inert document of the template contents
 * (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document),
 * which has no node of its own in the tree.
 *
 * @example
 * ```ts
 * nodeDocuments.nodeDocument(linkInTemplate, document) === INERT_DOCUMENT; // true
 * ```
 */
export const INERT_DOCUMENT: unique symbol = Symbol("the inert document of template contents");

/**
 * A node's document, as {@link NodeDocuments} tells it: a document node
 * (or the root fragment that plays the asking document), the
 * {@link INERT_DOCUMENT}, or null for the asking document itself (a
 * detached node or fragment in a tree that records no node documents: the
 * caller asked that document's context about it).
 *
 * @example
 * ```ts
 * const where: NodeDocument = nodeDocuments.nodeDocument(node, document);
 * ```
 */
export type NodeDocument = object | typeof INERT_DOCUMENT | null;

/**
 * Counts the reported changes of any tree's structure: what is remembered
 * about where a declarative shadow root hangs holds for one value.
 */
let structureVersion = 0;

/**
 * Notes a reported change of structure (children inserted or removed, a
 * node adopted) in any tree.
 *
 * @example
 * ```ts
 * structureChanged(); // before applying a childrenChanged() report
 * ```
 */
export function structureChanged(): void {
  structureVersion++;
}

/**
 * The node documents of one document's trees: the document's own, its
 * template contents and its declarative shadow roots.
 *
 * @example
 * ```ts
 * const nodeDocuments = new NodeDocuments(parse5TreeAdapter, document);
 * nodeDocuments.nodeDocument(linkInShadowRoot, document); // document
 * ```
 */
export class NodeDocuments {
  readonly #adapter: LooseAdapter;
  /** The document (null for none: an inert document made alone). */
  readonly #document: object | null;
  /** Template contents met so far (trees whose contents do not link to their template). */
  #templateContents: WeakSet<object> | null = null;
  #templatesIndexed = false;
  /**
   * The contents of the templates that stand for declarative shadow roots,
   * each to its template (see {@link #declarativeShadowTemplate}); null until
   * looked for, then empty when there are none.
   */
  #declarativeShadowRoots: WeakMap<object, object> | null = null;
  /** Whether {@link #declarativeShadowRoots} has any entry. */
  #hasDeclarativeShadowRoots = false;
  /** For declarative shadow roots, the outermost template of their chain (see {@link #outermostShadowTemplate}). */
  #outermostShadowTemplates: WeakMap<object, { readonly version: number; readonly template: object }> | null = null;

  constructor(adapter: LooseAdapter, document: object | null) {
    this.#adapter = adapter;
    this.#document = document;
  }

  /**
   * https://dom.spec.whatwg.org/#concept-node-document — the document of
   * `node`, asked by the context of `asking` (its document, or null for the
   * inert document).
   */
  nodeDocument(node: object, asking: object | null): NodeDocument {
    const owner = this.#adapter.getOwnerDocument(node);
    if (owner !== null) return this.ownerNodeDocument(node, owner, asking);
    return this.rootNodeDocument(rootOf(this.#adapter, node), asking);
  }

  /**
   * The document a tree belongs to, from its root: the asking document; another
   * document; a declarative shadow root's host's (https://dom.spec.whatwg.org/#concept-attach-a-shadow-root:
   * "Let shadow be a new shadow root whose node document is element's node
   * document"); template contents' inert document; or, for a detached node
   * or fragment in a tree that does not record node documents, the asking
   * document (null).
   */
  rootNodeDocument(root: object, asking: object | null): NodeDocument {
    const adapter = this.#adapter;
    if (root === asking || adapter.isDocumentNode(root)) return root;
    if (adapter.isDocumentFragmentNode(root)) {
      const template = this.#declarativeShadowTemplate(root);
      if (template !== null) return this.nodeDocument(this.#outermostShadowTemplate(root, template), asking);
      if (this.#isTemplateContent(root)) return INERT_DOCUMENT;
    }
    return null;
  }

  /**
   * The document of a node whose tree records `owner` as its node document:
   * `owner`, but for a node in a declarative shadow root that the tree keeps
   * as template contents (a DOM whose parser keeps them as templates, like
   * jsdom's), whose node document is the host's.
   */
  ownerNodeDocument(node: object, owner: object, asking: object | null): NodeDocument {
    if (owner === asking || asking === null) return owner;
    this.#findDeclarativeShadowRoots();
    if (this.#hasDeclarativeShadowRoots) {
      const root = rootOf(this.#adapter, node);
      const template = this.#declarativeShadowTemplate(root);
      if (template !== null) return this.nodeDocument(this.#outermostShadowTemplate(root, template), asking);
    }
    return owner;
  }

  /**
   * When `node` is in a declarative shadow root that the tree keeps as a
   * template's contents (see {@link #findDeclarativeShadowRoots}), nested
   * ones included, and its host is in the document: the document. Otherwise
   * null.
   */
  declarativeShadowRootDocument(node: object): object | null {
    const adapter = this.#adapter;
    const document = this.#document;
    if (document === null) return null;
    this.#findDeclarativeShadowRoots();
    if (!this.#hasDeclarativeShadowRoots) return null;
    const root = rootOf(adapter, node);
    const template = this.#declarativeShadowTemplate(root);
    if (template === null) return null;
    return rootOf(adapter, this.#outermostShadowTemplate(root, template)) === document ? document : null;
  }

  /**
   * Takes note of nodes reported inserted (already in place): the
   * document's declarative shadow roots are its parser's, so they are found
   * now, if not yet, without these; and the template contents in them are
   * template contents, wherever they were inserted.
   */
  inserted(added: readonly object[]): void {
    if (added.length > 0 && this.#declarativeShadowRoots === null) this.#findDeclarativeShadowRoots(added);
    if (this.#templatesIndexed) for (const node of added) this.#indexTemplates(node);
  }

  /**
   * Whether `fragment` is template contents (asking the tree, else the
   * templates seen). Deviation: in a tree that keeps no link from contents
   * to their template (parse5's default tree), the contents of a template
   * that was never in the document (nor reported inserted) cannot be told
   * from a detached fragment, and are taken as one (of the asking document).
   */
  #isTemplateContent(fragment: object): boolean {
    const known = this.#adapter.isTemplateContent?.(fragment);
    if (known !== undefined) return known;
    if (this.#templateContents?.has(fragment) === true) return true;
    if (this.#templatesIndexed) return false;
    // First time: index every template reachable from the document (nested ones included).
    this.#templatesIndexed = true;
    this.#templateContents ??= new WeakSet();
    if (this.#document !== null) this.#indexTemplates(this.#document);
    return this.#templateContents.has(fragment);
  }

  #indexTemplates(root: object): void {
    const adapter = this.#adapter;
    const contents = this.#templateContents!;
    forEachInclusiveDescendant(adapter, root, (node) => {
      const content = adapter.getTemplateContent(node);
      if (content !== null) contents.add(content);
    });
  }

  /**
   * Finds the templates of the document that stand for declarative shadow
   * roots, once: those that `attachesDeclarativeShadowRoot`
   * (declarative-shadow-root.ts) says the parser turned into shadow roots,
   * in the document's tree, in their contents and in template contents (as
   * browsers do: "template containing declarative shadow root" in WPT's
   * shadow-dom/declarative/declarative-shadow-dom-basic.html; Deviation: the
   * HTML Standard's inert document of template contents, "a new Document",
   * has its allow declarative shadow roots false, which would leave those
   * as templates; the shadow roots' node document is the inert document
   * either way, so no base URL differs).
   *
   * Only a document made by a parser that honours declarative shadow roots
   * and keeps them as templates has any: a root fragment (parse5's
   * `parseFragment()`, whose document's "allow declarative shadow roots" is
   * false) has none, and a DOM whose parser attaches them itself (see
   * {@link DocumentBaseTreeAdapter.keepsDeclarativeShadowRoots}) has none
   * left. Deviation: the tree is read the first time a declarative shadow
   * root matters (a node whose tree is template contents is asked about),
   * not as the parser built it: the templates inserted before that and
   * reported (`childrenChanged`) are left out, but those inserted without a
   * report are taken as the parser's.
   */
  #findDeclarativeShadowRoots(excluding?: readonly object[]): WeakMap<object, object> {
    if (this.#declarativeShadowRoots !== null) return this.#declarativeShadowRoots;
    const found = new WeakMap<object, object>();
    this.#declarativeShadowRoots = found;
    const document = this.#document;
    const adapter = this.#adapter;
    if (document === null || !(adapter.keepsDeclarativeShadowRoots?.(document) ?? adapter.isDocumentNode(document))) return found;
    // Optimisation: each host's children are looked at once (a host with 100,000 children
    // before its templates would cost as many steps per template otherwise).
    const byHost = new Map<object, unknown>();
    const visitInner = (node: object): void => {
      const content = adapter.getTemplateContent(node);
      if (content === null || shadowRootModeState(adapter.getAttribute(node, null, "shadowrootmode")) === "none") return;
      const host = adapter.getParentNode(node);
      if (host === null) return;
      let template = byHost.get(host);
      if (template === undefined) byHost.set(host, (template = declarativeShadowRootTemplateOf(adapter as DocumentBaseTreeAdapter, host)));
      if (template !== node) return;
      found.set(content, node);
      this.#hasDeclarativeShadowRoots = true;
    };
    const visit = (node: object): void => {
      visitInner(node);
      const content = adapter.getTemplateContent(node);
      if (content === null) return;
      // Templates in the contents (nested ones included: the walk enters contents).
      forEachInclusiveDescendant(adapter, content, (inner) => {
        if (inner !== content) visitInner(inner);
      });
    };
    // Optimisation: the tree's own index of templates (jsdom's), where it has one; their
    // contents are walked.
    const templates = adapter.isDocumentNode(document) ? (adapter.getElementsByTagNameNS?.(document, HTML_NAMESPACE, "template") ?? null) : null;
    if (templates !== null) {
      for (let i = 0; i < templates.length; i++) visit(templates[i]!);
    } else {
      forEachInclusiveDescendant(adapter, document, visitInner);
    }
    // Nodes just inserted, and reported, are not the parser's.
    for (const node of excluding ?? []) {
      forEachInclusiveDescendant(adapter, node, (inner) => {
        const content = adapter.getTemplateContent(inner);
        if (content !== null) found.delete(content);
      });
    }
    return found;
  }

  /**
   * The template whose contents `root` (the root of a tree) are, when that
   * template stands for a declarative shadow root of the document, or null.
   */
  #declarativeShadowTemplate(root: object): object | null {
    const found = this.#findDeclarativeShadowRoots();
    if (!this.#hasDeclarativeShadowRoots) return null;
    return found.get(root) ?? null;
  }

  /**
   * `template`, whose contents `root` are a declarative shadow root, or,
   * when that template is itself in a declarative shadow root (nested), the
   * template of the outermost one: the first up the chain whose own tree is
   * no declarative shadow root (the document, template contents, a detached
   * tree). A shadow root's node document is its host's, so all of the chain
   * have that template's node document.
   *
   * Optimisation: the chain is walked once per reported change of
   * structure, in a loop, and every root on it remembers the answer, so
   * that the nodes of shadow roots nested n deep cost O(n) in all, not
   * O(n) each. Only in a tree that records no node documents (parse5,
   * domhandler), which must report its mutations: a DOM's observer does not
   * see those inside template contents, where such chains live, so there
   * the chain is walked each time.
   */
  #outermostShadowTemplate(root: object, template: object): object {
    const adapter = this.#adapter;
    const memo = adapter.getOwnerDocument(template) === null ? (this.#outermostShadowTemplates ??= new WeakMap()) : null;
    const known = memo?.get(root);
    if (known !== undefined && known.version === structureVersion) return known.template;
    const chain: object[] = [root];
    let outermost = template;
    for (;;) {
      const next = rootOf(adapter, outermost);
      const hit = memo?.get(next);
      if (hit !== undefined && hit.version === structureVersion) {
        outermost = hit.template;
        break;
      }
      const inner = adapter.isDocumentFragmentNode(next) ? this.#declarativeShadowTemplate(next) : null;
      if (inner === null) break;
      chain.push(next);
      outermost = inner;
    }
    if (memo !== null) {
      const entry = { version: structureVersion, template: outermost };
      for (const node of chain) memo.set(node, entry);
    }
    return outermost;
  }
}
