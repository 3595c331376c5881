/**
 * Which document a node belongs to (https://dom.spec.whatwg.org/#concept-node-document)
 * when the tree does not say: template contents belong to an inert document,
 * and a declarative shadow root kept as a template's contents belongs to its
 * host's document.
 *
 * @module
 */

import { HTML_NAMESPACE, shadowRootModeState } from "../html/index.ts";
import { declarativeShadowRootTemplateOf } from "./declarative-shadow-root.ts";
import type { DocumentBaseTreeAdapter } from "./tree-adapter.ts";
import { forEachInclusiveDescendant, type LooseAdapter, rootOf } from "./tree-walk.ts";

/**
 * The inert document of template contents
 * (https://html.spec.whatwg.org/multipage/scripting.html#appropriate-template-contents-owner-document),
 * which has no node in the tree.
 *
 * @example
 * ```ts
 * nodeDocuments.nodeDocument(linkInTemplate, document) === INERT_DOCUMENT; // true
 * ```
 */
export const INERT_DOCUMENT: unique symbol = Symbol("the inert document of template contents");

/**
 * A node's document: a document node (or the root fragment standing for the
 * asking document), the {@link INERT_DOCUMENT}, or null for the asking
 * document itself (a detached node in a tree without node documents).
 * @example
 * ```ts
 * const where: NodeDocument = nodeDocuments.nodeDocument(node, document);
 * ```
 */
export type NodeDocument = object | typeof INERT_DOCUMENT | null;

/** Counts reported changes of structure in any tree; remembered shadow-root chains hold for one value. */
let structureVersion = 0;

/**
 * Notes a reported change of structure (children inserted or removed, a node
 * adopted) in any tree.
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
  /** null: an inert document made alone. */
  readonly #document: object | null;
  /** Template contents met so far (for trees whose contents do not link to their template). */
  #templateContents: WeakSet<object> | null = null;
  #templatesIndexed = false;
  /** The contents of templates that stand for declarative shadow roots, each to its template; null until looked for. */
  #declarativeShadowRoots: WeakMap<object, object> | null = null;
  #hasDeclarativeShadowRoots = false;
  /** Per declarative shadow root, the outermost template of its chain. */
  #outermostShadowTemplates: WeakMap<object, { readonly version: number; readonly template: object }> | null = null;

  constructor(adapter: LooseAdapter, document: object | null) {
    this.#adapter = adapter;
    this.#document = document;
  }

  /** https://dom.spec.whatwg.org/#concept-node-document — as the context of `asking` (null: the inert document) sees it. */
  nodeDocument(node: object, asking: object | null): NodeDocument {
    const owner = this.#adapter.getOwnerDocument(node);
    if (owner !== null) return this.ownerNodeDocument(node, owner, asking);
    return this.rootNodeDocument(rootOf(this.#adapter, node), asking);
  }

  /**
   * The document a tree belongs to, from its root. A declarative shadow
   * root's is its host's (https://dom.spec.whatwg.org/#concept-attach-a-shadow-root:
   * "Let shadow be a new shadow root whose node document is element's node
   * document").
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

  /** `owner`, or the host's document for a declarative shadow root kept as template contents (jsdom). */
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

  /** The document, when `node` is in a declarative shadow root (nested ones too) whose host is in it; else null. */
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
   * Takes note of inserted nodes: the parser's declarative shadow roots are
   * found now if not yet (these excluded), and template contents indexed.
   */
  inserted(added: readonly object[]): void {
    if (added.length > 0 && this.#declarativeShadowRoots === null) this.#findDeclarativeShadowRoots(added);
    if (this.#templatesIndexed) for (const node of added) this.#indexTemplates(node);
  }

  /**
   * Whether `fragment` is template contents. Deviation: in parse5's default
   * tree, the contents of a template never in the document (nor reported
   * inserted) cannot be told from a detached fragment, and are taken as one.
   */
  #isTemplateContent(fragment: object): boolean {
    const known = this.#adapter.isTemplateContent?.(fragment);
    if (known !== undefined) return known;
    if (this.#templateContents?.has(fragment) === true) return true;
    if (this.#templatesIndexed) return false;
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
   * Finds, once, the templates that stand for declarative shadow roots (by
   * `attachesDeclarativeShadowRoot`): in the document, in their contents and
   * in template contents, as browsers do (WPT shadow-dom/declarative/
   * declarative-shadow-dom-basic.html). Only a document whose parser keeps
   * them as templates has any
   * ({@link DocumentBaseTreeAdapter.keepsDeclarativeShadowRoots}).
   *
   * Deviation: the standard's inert document does not allow declarative
   * shadow roots; either way their node document is the inert one, so no base
   * URL differs. Deviation: the tree is read when a shadow root first
   * matters, not as the parser built it: templates reported inserted before
   * that are left out, unreported ones are taken as the parser's.
   */
  #findDeclarativeShadowRoots(excluding?: readonly object[]): WeakMap<object, object> {
    if (this.#declarativeShadowRoots !== null) return this.#declarativeShadowRoots;
    const found = new WeakMap<object, object>();
    this.#declarativeShadowRoots = found;
    const document = this.#document;
    const adapter = this.#adapter;
    if (document === null || !(adapter.keepsDeclarativeShadowRoots?.(document) ?? adapter.isDocumentNode(document))) return found;
    // Optimisation: each host's children are looked at once.
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
      forEachInclusiveDescendant(adapter, content, (inner) => {
        if (inner !== content) visitInner(inner);
      });
    };
    // Optimisation: the tree's own index of templates (jsdom's), where it has one.
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

  /** The template whose contents `root` are, when it stands for a declarative shadow root; else null. */
  #declarativeShadowTemplate(root: object): object | null {
    const found = this.#findDeclarativeShadowRoots();
    if (!this.#hasDeclarativeShadowRoots) return null;
    return found.get(root) ?? null;
  }

  /**
   * The template of the outermost declarative shadow root in the chain above
   * `root` (whose template is `template`): every shadow root of the chain has
   * its node document.
   *
   * Optimisation: in trees without node documents (which report their
   * mutations), every root on the chain remembers the answer until the
   * structure changes, so n nested roots cost O(n) in all, not each.
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
