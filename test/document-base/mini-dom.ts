/**
 * A minimal W3C DOM: nodes, elements with namespaced attributes, documents
 * and fragments, with the DOM's own member names and behaviour for what it
 * has (appendChild, insertBefore, removeChild, adoptNode, getAttributeNS…).
 *
 * Why it exists: the hostile-tree tests need a 100,000-level-deep tree
 * under the DOM adapter, and jsdom cannot build one in reasonable time (its
 * insertion walks the new parent's ancestors and root, so building a chain
 * is quadratic: 10,000 levels take about 9 s, 20,000 about 15 s). The DOM
 * adapter reads any DOM, so the deep cases run it over this one; every
 * other DOM test runs over jsdom.
 *
 * @module
 */

const ELEMENT_NODE = 1;
const TEXT_NODE = 3;
const DOCUMENT_NODE = 9;
const DOCUMENT_FRAGMENT_NODE = 11;

export class MiniNode {
  readonly nodeType: number;
  ownerDocument: MiniDocument | null;
  parentNode: MiniNode | null = null;
  previousSibling: MiniNode | null = null;
  nextSibling: MiniNode | null = null;
  readonly childNodes: MiniNode[] = [];

  constructor(nodeType: number, ownerDocument: MiniDocument | null) {
    this.nodeType = nodeType;
    this.ownerDocument = ownerDocument;
  }

  get firstChild(): MiniNode | null {
    return this.childNodes[0] ?? null;
  }

  get lastChild(): MiniNode | null {
    return this.childNodes[this.childNodes.length - 1] ?? null;
  }

  appendChild<N extends MiniNode>(node: N): N {
    return this.insertBefore(node, null);
  }

  insertBefore<N extends MiniNode>(node: N, reference: MiniNode | null): N {
    if (node.parentNode !== null) node.parentNode.removeChild(node);
    const document = this.nodeType === DOCUMENT_NODE ? (this as unknown as MiniDocument) : this.ownerDocument;
    if (document !== null) document.adoptNode(node);
    const index = reference === null ? this.childNodes.length : this.childNodes.indexOf(reference);
    if (index === -1) throw new Error("insertBefore: the reference is not a child");
    const previous = this.childNodes[index - 1] ?? null;
    const next = this.childNodes[index] ?? null;
    this.childNodes.splice(index, 0, node);
    node.parentNode = this;
    node.previousSibling = previous;
    node.nextSibling = next;
    if (previous !== null) previous.nextSibling = node;
    if (next !== null) next.previousSibling = node;
    return node;
  }

  removeChild<N extends MiniNode>(node: N): N {
    const index = node.parentNode === this ? (this.lastChild === node ? this.childNodes.length - 1 : this.childNodes.indexOf(node)) : -1;
    if (index === -1) throw new Error("removeChild: not a child");
    this.childNodes.splice(index, 1);
    if (node.previousSibling !== null) node.previousSibling.nextSibling = node.nextSibling;
    if (node.nextSibling !== null) node.nextSibling.previousSibling = node.previousSibling;
    node.parentNode = null;
    node.previousSibling = null;
    node.nextSibling = null;
    return node;
  }
}

interface MiniAttr {
  namespaceURI: string | null;
  prefix: string | null;
  localName: string;
  value: string;
}

export class MiniElement extends MiniNode {
  readonly namespaceURI: string | null;
  readonly localName: string;
  readonly #attributes: MiniAttr[] = [];

  constructor(document: MiniDocument, namespaceURI: string | null, localName: string) {
    super(ELEMENT_NODE, document);
    this.namespaceURI = namespaceURI;
    this.localName = localName;
  }

  #find(namespace: string | null, localName: string): MiniAttr | undefined {
    return this.#attributes.find((a) => a.namespaceURI === namespace && a.localName === localName);
  }

  getAttributeNS(namespace: string | null, localName: string): string | null {
    return this.#find(namespace === "" ? null : namespace, localName)?.value ?? null;
  }

  setAttributeNS(namespace: string | null, qualifiedName: string, value: string): void {
    const colon = qualifiedName.indexOf(":");
    const prefix = colon === -1 ? null : qualifiedName.slice(0, colon);
    const localName = colon === -1 ? qualifiedName : qualifiedName.slice(colon + 1);
    const ns = namespace === "" ? null : namespace;
    const existing = this.#find(ns, localName);
    if (existing !== undefined) existing.value = value;
    else this.#attributes.push({ namespaceURI: ns, prefix, localName, value });
  }

  removeAttributeNS(namespace: string | null, localName: string): void {
    const existing = this.#find(namespace === "" ? null : namespace, localName);
    if (existing !== undefined) this.#attributes.splice(this.#attributes.indexOf(existing), 1);
  }

  getAttribute(name: string): string | null {
    return this.getAttributeNS(null, name);
  }

  setAttribute(name: string, value: string): void {
    this.setAttributeNS(null, name, value);
  }
}

export class MiniDocument extends MiniNode {
  readonly URL: string;
  readonly characterSet: string;
  readonly defaultView = null;

  constructor(url = "about:blank", characterSet = "UTF-8") {
    super(DOCUMENT_NODE, null);
    this.URL = url;
    this.characterSet = characterSet;
  }

  createElementNS(namespace: string | null, localName: string): MiniElement {
    return new MiniElement(this, namespace, localName);
  }

  createTextNode(_data: string): MiniNode {
    return new MiniNode(TEXT_NODE, this);
  }

  createDocumentFragment(): MiniNode {
    return new MiniNode(DOCUMENT_FRAGMENT_NODE, this);
  }

  /** https://dom.spec.whatwg.org/#concept-node-adopt (iteratively). */
  adoptNode<N extends MiniNode>(node: N): N {
    if (node.parentNode !== null) node.parentNode.removeChild(node);
    if (node.ownerDocument === this) return node;
    const stack: MiniNode[] = [node];
    while (stack.length > 0) {
      const n = stack.pop()!;
      n.ownerDocument = this;
      for (const child of n.childNodes) stack.push(child);
    }
    return node;
  }
}

/** A document with `<html><head></head><body></body></html>`. */
export function miniHTMLDocument(url: string): { document: MiniDocument; head: MiniElement; body: MiniElement } {
  const document = new MiniDocument(url);
  const html = document.appendChild(document.createElementNS("http://www.w3.org/1999/xhtml", "html"));
  const head = html.appendChild(document.createElementNS("http://www.w3.org/1999/xhtml", "head"));
  const body = html.appendChild(document.createElementNS("http://www.w3.org/1999/xhtml", "body"));
  head.setAttribute("id", "head");
  body.setAttribute("id", "body");
  return { document, head, body };
}
