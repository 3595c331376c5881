/**
 * What is particular to one tree or one helper, and so cannot be in the
 * parametrized suite: how each adapter maps its tree's conventions
 * (attribute naming, template contents, namespaces) onto the DOM's view,
 * and the about: URL predicates.
 */

import { Document as DomhandlerDocument, Element as DomhandlerElement } from "domhandler";
import { JSDOM } from "jsdom";
import { parse, serialize } from "parse5";
import { adapter as htmlparser2Builder } from "parse5-htmlparser2-tree-adapter";
import { describe, expect, it } from "vitest";
import { parseURL } from "../../src/core/index.ts";
import {
  baseURI,
  createDocumentContext,
  type DOMDocument,
  domTreeAdapter,
  HTML_NAMESPACE,
  htmlparser2TreeAdapter,
  matchesAboutBlank,
  matchesAboutSrcdoc,
  parse5TreeAdapter,
  XML_NAMESPACE,
} from "../../src/document-base/index.ts";
import { MiniDocument } from "./mini-dom.ts";

describe("matches about:blank / about:srcdoc (HTML Standard §2.4.1)", () => {
  const cases: [string, boolean, boolean][] = [
    ["about:blank", true, false],
    ["about:blank?foo#bar", true, false],
    ["about:blank#x", true, false],
    ["about:/blank", true, false],
    ["about:Blank", false, false],
    ["about:blank/", false, false],
    ["about://host/blank", false, false],
    ["about://u@/blank", false, false],
    ["about:srcdoc", false, true],
    ["about:srcdoc#foo", false, true],
    ["about:srcdoc?x", false, false],
    ["about:srcdocs", false, false],
    ["https://example.com/blank", false, false],
  ];
  for (const [input, blank, srcdoc] of cases) {
    it(`${input}: blank ${blank}, srcdoc ${srcdoc}`, () => {
      const url = parseURL(input);
      if (url === null) {
        expect(blank || srcdoc).toBe(false);
        return;
      }
      expect(matchesAboutBlank(url)).toBe(blank);
      expect(matchesAboutSrcdoc(url)).toBe(srcdoc);
    });
  }
});

/** The first element child of `node` named `name`, through the adapter (for parse5 trees). */
function child(node: unknown, name: string): never {
  const found = Array.from(parse5TreeAdapter.getChildNodes(node as never)).find(
    (n) => parse5TreeAdapter.isElementNode(n) && parse5TreeAdapter.getLocalName(n) === name,
  );
  if (found === undefined) throw new Error(`no ${name}`);
  return found as never;
}

describe("the parse5 adapter", () => {
  it("writes namespaced attributes the way parse5 does, so that they serialize with their prefix", () => {
    const document = parse("<div id=d></div>");
    const div = child(child(child(document, "html"), "body"), "div") as import("parse5").DefaultTreeAdapterTypes.Element;
    parse5TreeAdapter.setAttribute(div, XML_NAMESPACE, "base", "/feed/", "xml");
    expect(parse5TreeAdapter.getAttribute(div, XML_NAMESPACE, "base")).toBe("/feed/");
    expect(parse5TreeAdapter.getAttribute(div, null, "base")).toBeNull();
    expect(serialize(document)).toContain('xml:base="/feed/"');
    parse5TreeAdapter.setAttribute(div, XML_NAMESPACE, "base", "/other/", "xml");
    expect(div.attrs.filter((a) => a.name === "base")).toHaveLength(1);
    parse5TreeAdapter.removeAttribute(div, XML_NAMESPACE, "base");
    expect(parse5TreeAdapter.getAttribute(div, XML_NAMESPACE, "base")).toBeNull();
  });

  it("finds siblings without links, and reports no owner document for elements", () => {
    const document = parse("<p>a</p><p>b</p><p>c</p>");
    const body = child(child(document, "html"), "body");
    const [a, b, c] = Array.from(parse5TreeAdapter.getChildNodes(body)) as [never, never, never];
    expect(parse5TreeAdapter.getNextSibling(a)).toBe(b);
    expect(parse5TreeAdapter.getNextSibling(c)).toBeNull();
    expect(parse5TreeAdapter.getOwnerDocument(a)).toBeNull();
    expect(parse5TreeAdapter.getOwnerDocument(document)).toBe(document);
    expect(parse5TreeAdapter.siblingLinks).toBe(false);
  });
});

describe("the htmlparser2 (domhandler) adapter", () => {
  it("shows template contents as the DOM does: not a child, a fragment without parent", () => {
    const document = parse("<template><p>in</p></template><p>out</p>", { treeAdapter: htmlparser2Builder });
    const head = (document.children[0] as DomhandlerElement).children[0] as DomhandlerElement;
    const template = head.children[0] as DomhandlerElement;
    const content = htmlparser2TreeAdapter.getTemplateContent(template)!;
    expect(content.type).toBe("root");
    expect(template.children[0]).toBe(content); // how domhandler stores it
    expect(htmlparser2TreeAdapter.getFirstChild(template)).toBeNull();
    expect(htmlparser2TreeAdapter.getChildNodes(template)).toHaveLength(0);
    expect(htmlparser2TreeAdapter.getParentNode(content)).toBeNull();
    expect(htmlparser2TreeAdapter.isDocumentFragmentNode(content)).toBe(true);
    expect(htmlparser2TreeAdapter.isDocumentNode(content)).toBe(false);
    expect(htmlparser2TreeAdapter.isTemplateContent!(content)).toBe(true);
    expect(htmlparser2TreeAdapter.isDocumentNode(document)).toBe(true);
  });

  it("keys namespaced attributes by local name with parse5's maps, so that they serialize with their prefix", () => {
    const document = parse("<div></div>", { treeAdapter: htmlparser2Builder });
    const body = (document.children[0] as DomhandlerElement).children[1] as DomhandlerElement;
    const div = body.children[0] as DomhandlerElement;
    htmlparser2TreeAdapter.setAttribute(div, XML_NAMESPACE, "base", "/feed/", "xml");
    expect(div["x-attribsNamespace"]!["base"]).toBe(XML_NAMESPACE);
    expect(htmlparser2TreeAdapter.getAttribute(div, XML_NAMESPACE, "base")).toBe("/feed/");
    expect(htmlparser2TreeAdapter.getAttribute(div, null, "base")).toBeNull();
    expect(serialize(document, { treeAdapter: htmlparser2Builder })).toContain('xml:base="/feed/"');
    htmlparser2TreeAdapter.removeAttribute(div, XML_NAMESPACE, "base");
    expect(div.attribs["base"]).toBeUndefined();
  });

  it("reads trees from htmlparser2's own parser: no namespaces recorded, xml:base is the XML one, elements are HTML", () => {
    // What htmlparser2's DomHandler builds: plain attribs keyed by qualified name, no namespace maps.
    const a = new DomhandlerElement("a", { href: "c" });
    const div = new DomhandlerElement("div", { "xml:base": "http://feed.example/a/" }, [a]);
    const base = new DomhandlerElement("base", { href: "/docs/" });
    const root = new DomhandlerDocument([base, div]);
    for (const node of [base, div]) node.parent = root;
    base.next = div;
    div.prev = base;
    a.parent = div;
    expect(htmlparser2TreeAdapter.getAttribute(div, XML_NAMESPACE, "base")).toBe("http://feed.example/a/");
    expect(htmlparser2TreeAdapter.getAttribute(div, null, "xml:base")).toBeNull();
    expect(htmlparser2TreeAdapter.getNamespaceURI(base)).toBe(HTML_NAMESPACE);
    // Its root has no document mode: a root fragment, which a context accepts as its document.
    expect(htmlparser2TreeAdapter.isDocumentNode(root)).toBe(false);
    const context = createDocumentContext(htmlparser2TreeAdapter, root, { url: "https://example.com/", xmlBase: true });
    expect(baseURI(context, root)).toBe("https://example.com/docs/");
    expect(baseURI(context, a)).toBe("http://feed.example/a/");
    htmlparser2TreeAdapter.setAttribute(div, XML_NAMESPACE, "base", "b/", "xml");
    expect(div.attribs["xml:base"]).toBe("b/");
    context.dispose();
  });
});

describe("the DOM adapter", () => {
  it("reads the document's URL and encoding, and writes prefixed namespaced attributes", () => {
    const { document } = new JSDOM('<meta charset="windows-1252"><p id="p">', { url: "https://example.com/x" }).window;
    expect(domTreeAdapter.getDocumentURL!(document)).toBe("https://example.com/x");
    const p = document.getElementById("p")!;
    domTreeAdapter.setAttribute(p, XML_NAMESPACE, "base", "/feed/", "xml");
    expect(p.getAttributeNS(XML_NAMESPACE, "base")).toBe("/feed/");
    expect(p.attributes[1]!.name).toBe("xml:base");
    expect(domTreeAdapter.getOwnerDocument(p)).toBe(document);
    expect(domTreeAdapter.getTemplateContent(p)).toBeNull();
  });

  it("works over any DOM, not only jsdom", () => {
    const document = new MiniDocument("https://mini.example/dir/", "windows-1252");
    const html = document.appendChild(document.createElementNS(HTML_NAMESPACE, "html"));
    const base = html.appendChild(document.createElementNS(HTML_NAMESPACE, "base"));
    base.setAttribute("href", "?å");
    const context = createDocumentContext(domTreeAdapter, document as unknown as DOMDocument);
    expect(context.encoding).toBe("windows-1252");
    expect(baseURI(context, html as never)).toBe("https://mini.example/dir/?%E5");
    context.dispose();
  });

  it("cannot observe a document that has no MutationObserver", () => {
    const document = new MiniDocument("https://mini.example/");
    expect(() => createDocumentContext(domTreeAdapter, document as unknown as DOMDocument, { observe: true })).toThrow(/cannot observe/);
    createDocumentContext(domTreeAdapter, document as unknown as DOMDocument).dispose();
  });
});
