/**
 * The three trees the url-utils suite runs against, behind one small "kit"
 * interface: load a document and its context, find, make, change and move
 * nodes. The suite (url-utils.test.ts) is written once against
 * {@link TreeKit} and run for each kit in {@link kits}.
 *
 * - parse5: parse5's default tree (`parse5.parse`).
 * - htmlparser2: domhandler nodes built by parse5 with
 *   parse5-htmlparser2-tree-adapter (what cheerio does).
 * - jsdom: a live jsdom document read through the W3C DOM adapter, with an
 *   observing context (`observe: true`), so that the suite changes it with
 *   plain DOM calls and the context sees them through MutationObserver. A
 *   document in a legacy encoding is given to jsdom as bytes, with a
 *   `<meta charset>`, so that jsdom itself decides its encoding.
 *
 * The parse5-built trees cannot report their changes: every change the kit
 * makes to them is reported to the context (attributeChanged,
 * childrenChanged), as a user of those trees must.
 *
 * @module
 */

import iconv from "iconv-lite";
import { JSDOM } from "jsdom";
import { type DefaultTreeAdapterMap, defaultTreeAdapter, html as parse5Html, parse, type TreeAdapter } from "parse5";
import { adapter as htmlparser2Builder } from "parse5-htmlparser2-tree-adapter";
import {
  createDocumentContext,
  type DocumentBaseTreeAdapter,
  type DocumentContext,
  type DocumentContextOptions,
  domTreeAdapter,
  HTML_NAMESPACE,
  htmlparser2TreeAdapter,
  parse5TreeAdapter,
  type TreeAdapterTypeMap,
} from "../../src/document-base/index.ts";
import { getById } from "../tree-search.ts";

/** Nodes as the suite sees them: opaque objects that the kit and the adapter understand. */
export type Node = object;
export type LooseMap = TreeAdapterTypeMap<Node, Node, Node, Node, Node, Node>;

/** How a document is loaded. */
export interface LoadOptions {
  /** The document URL; default about:blank. */
  readonly url?: string;
  /** An encoding label; default UTF-8. The kit adds the `<meta charset>` jsdom needs. */
  readonly encoding?: string;
  /** Context options beyond URL and encoding (aboutBaseURL, xmlBase). */
  readonly context?: Pick<DocumentContextOptions, "aboutBaseURL" | "xmlBase">;
}

/** A loaded document and its context. */
export interface Loaded {
  readonly document: Node;
  readonly context: DocumentContext<LooseMap>;
}

/** Everything the suite does to a tree, for one kind of tree. */
export interface TreeKit {
  readonly name: string;
  readonly adapter: DocumentBaseTreeAdapter<LooseMap>;
  /**
   * Whether an element can carry both `href` and `xlink:href`. A tree built
   * by parse5-htmlparser2-tree-adapter keys attributes by local name, so
   * the second one parsed replaces the first.
   */
  readonly holdsHrefAndXlinkHref: boolean;
  load(html: string, options?: LoadOptions): Loaded;
  /** The element with this id (template contents included); throws when there is none. */
  byId(document: Node, id: string): Node;
  /** A new element of `document` (detached), with attributes set in order. */
  createElement(loaded: Loaded, localName: string, attributes?: Readonly<Record<string, string>>, namespace?: string): Node;
  /** Sets an attribute as a script would (DOM) or as a user of the tree must (change and report). */
  setAttribute(loaded: Loaded, element: Node, name: string, value: string, namespace?: string | null, prefix?: string): void;
  /** Removes an attribute, likewise. */
  removeAttribute(loaded: Loaded, element: Node, name: string, namespace?: string | null): void;
  /** Inserts `node` as the last child of `parent`, likewise. */
  append(loaded: Loaded, parent: Node, node: Node): void;
  /** Inserts `node` before `reference`, a child of `parent`, likewise. */
  insertBefore(loaded: Loaded, parent: Node, node: Node, reference: Node): void;
  /** Detaches `node`, likewise. */
  remove(loaded: Loaded, node: Node): void;
  /** The raw attribute value (null: absent). */
  getAttribute(loaded: Loaded, element: Node, name: string, namespace?: string | null): string | null;
}

function byIdWith(adapter: DocumentBaseTreeAdapter<LooseMap>) {
  return (document: Node, id: string): Node => getById(adapter as never, document, id);
}

/** Kits for the two parse5-built trees, which share their building code. */
function parse5Kit<M extends DefaultTreeAdapterMap>(name: string, adapterIn: DocumentBaseTreeAdapter<never>, builder: TreeAdapter<M>, holdsBoth: boolean): TreeKit {
  const adapter = adapterIn as unknown as DocumentBaseTreeAdapter<LooseMap>;
  const b = builder as unknown as TreeAdapter<DefaultTreeAdapterMap>;
  type PNode = DefaultTreeAdapterMap["node"];
  type PParent = DefaultTreeAdapterMap["parentNode"];
  type PChild = DefaultTreeAdapterMap["childNode"];
  return {
    name,
    adapter,
    holdsHrefAndXlinkHref: holdsBoth,
    load(html, options = {}) {
      const document = parse(html, { treeAdapter: builder }) as Node;
      const contextOptions: DocumentContextOptions = {
        ...(options.url === undefined ? {} : { url: options.url }),
        ...(options.encoding === undefined ? {} : { encoding: options.encoding }),
        ...options.context,
      };
      return { document, context: createDocumentContext(adapter, document, contextOptions) };
    },
    byId: byIdWith(adapter),
    createElement(loaded, localName, attributes = {}, namespace = HTML_NAMESPACE) {
      const element = b.createElement(localName, namespace as parse5Html.NS, []) as Node;
      for (const [key, value] of Object.entries(attributes)) adapter.setAttribute(element, null, key, value);
      return element;
    },
    setAttribute(loaded, element, attrName, value, namespace = null, prefix) {
      const old = adapter.getAttribute(element, namespace, attrName);
      adapter.setAttribute(element, namespace, attrName, value, prefix);
      loaded.context.attributeChanged(element, namespace, attrName, old);
    },
    removeAttribute(loaded, element, attrName, namespace = null) {
      const old = adapter.getAttribute(element, namespace, attrName);
      adapter.removeAttribute(element, namespace, attrName);
      loaded.context.attributeChanged(element, namespace, attrName, old);
    },
    append(loaded, parent, node) {
      if (b.getParentNode(node as PChild) !== null) this.remove(loaded, node);
      b.appendChild(parent as PParent, node as PChild);
      loaded.context.childrenChanged(parent, { added: [node] });
    },
    insertBefore(loaded, parent, node, reference) {
      if (b.getParentNode(node as PChild) !== null) this.remove(loaded, node);
      b.insertBefore(parent as PParent, node as PChild, reference as PChild);
      loaded.context.childrenChanged(parent, { added: [node] });
    },
    remove(loaded, node) {
      const parent = b.getParentNode(node as PChild);
      if (parent === null) throw new Error("remove: the node has no parent");
      b.detachNode(node as PNode as PChild);
      loaded.context.childrenChanged(parent, { removed: [node] });
    },
    getAttribute(_loaded, element, attrName, namespace = null) {
      return adapter.getAttribute(element, namespace, attrName);
    },
  };
}

const domAdapter = domTreeAdapter as unknown as DocumentBaseTreeAdapter<LooseMap>;

const domKit: TreeKit = {
  name: "jsdom",
  adapter: domAdapter,
  holdsHrefAndXlinkHref: true,
  load(html, options = {}) {
    const url = options.url ?? "about:blank";
    let input: string | Buffer = html;
    if (options.encoding !== undefined) {
      const withMeta = `<meta charset="${options.encoding}">${html}`;
      // The suite writes non-ASCII characters of legacy-encoded documents as character
      // references, so that the bytes are the same in every encoding.
      if (/[^\x00-\x7F]/u.test(html)) throw new Error("Write non-ASCII characters of a legacy-encoded document as character references");
      input = /^utf-?16/i.test(options.encoding) ? iconv.encode(withMeta, options.encoding, { addBOM: true }) : Buffer.from(withMeta, "latin1");
    }
    const { document } = new JSDOM(input, { url, contentType: "text/html" }).window;
    const context = createDocumentContext(domAdapter, document as unknown as Node, { observe: true, ...options.context });
    return { document, context };
  },
  byId: byIdWith(domAdapter),
  createElement(loaded, localName, attributes = {}, namespace = HTML_NAMESPACE) {
    const element = (loaded.document as Document).createElementNS(namespace, localName);
    for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, value);
    return element;
  },
  setAttribute(_loaded, element, attrName, value, namespace = null, prefix) {
    (element as Element).setAttributeNS(namespace, prefix === undefined ? attrName : `${prefix}:${attrName}`, value);
  },
  removeAttribute(_loaded, element, attrName, namespace = null) {
    (element as Element).removeAttributeNS(namespace, attrName);
  },
  append(_loaded, parent, node) {
    (parent as Element).appendChild(node as Element);
  },
  insertBefore(_loaded, parent, node, reference) {
    (parent as Element).insertBefore(node as Element, reference as Element);
  },
  remove(_loaded, node) {
    (node as Element).remove();
  },
  getAttribute(_loaded, element, attrName, namespace = null) {
    return (element as Element).getAttributeNS(namespace, attrName);
  },
};

/** The three trees. */
export const kits: readonly TreeKit[] = [
  parse5Kit("parse5", parse5TreeAdapter as never, defaultTreeAdapter, true),
  parse5Kit("htmlparser2", htmlparser2TreeAdapter as never, htmlparser2Builder as unknown as TreeAdapter<DefaultTreeAdapterMap>, false),
  domKit,
];

