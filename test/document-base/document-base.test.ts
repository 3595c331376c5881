/**
 * The document-base suite: written once, run against every tree (parse5's
 * default tree, the htmlparser2/domhandler tree, and jsdom through the DOM
 * adapter; see trees.ts).
 *
 * The facts come from ../shared/wpt-catalogue.md §0 and §1 (the test file
 * each one comes from is named in the test title), from the HTML Standard,
 * and, for xml:base, from HTML 5 and XML Base. Page-like documents live at
 * P = https://example.com/dir/page.html (so Pdir = https://example.com/dir/
 * and O = https://example.com).
 */

import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import { isUnknownEncodingError, parseURL, serializeURL } from "../../src/core/index.ts";
import {
  type BaseURLChange,
  baseElementHref,
  baseURI,
  createDocumentContext,
  type DocumentContext,
  type DocumentContextOptions,
  documentBaseURL,
  documentContextOf,
  elementBaseURL,
  encodingParseAndSerializeURL,
  encodingParseURL,
  fallbackBaseURL,
  frozenBaseURL,
  HTML_NAMESPACE,
  isDocumentContextError,
  MATHML_NAMESPACE,
  nodeDocumentURL,
  SVG_NAMESPACE,
  XML_NAMESPACE,
} from "../../src/document-base/index.ts";
import { kits, type TreeKit } from "./trees.ts";

const P = "https://example.com/dir/page.html";
const Pdir = "https://example.com/dir/";
const O = "https://example.com";

interface OpenOptions extends Omit<DocumentContextOptions, "url" | "encoding"> {
  readonly url?: string;
  readonly encoding?: string;
  readonly xhtml?: boolean;
}

/** A base-URL change, with its roots named (by id, else local name, else "#document"). */
interface NamedChange {
  readonly reason: BaseURLChange["reason"];
  readonly roots: readonly string[];
  readonly oldBaseURL: string;
  readonly newBaseURL: string;
}

describe.each(kits)("document base URL over the $name tree", (kit: TreeKit) => {
  const adapter = kit.adapter;
  const live: DocumentContext[] = [];
  afterEach(() => {
    for (const context of live.splice(0)) context.dispose();
  });

  /** Loads `html` (at P unless told) and makes its context. `$` finds an element by id. */
  function open(html: string, options: OpenOptions = {}) {
    const { url = P, encoding, xhtml, ...contextOptions } = options;
    const loaded = kit.load(html, { url, ...(encoding === undefined ? {} : { encoding }), ...(xhtml === true ? { xhtml } : {}) });
    const context = createDocumentContext(adapter, loaded.document, { ...loaded.options, ...contextOptions });
    live.push(context);
    return { document: loaded.document, context, $: (id: string) => kit.byId(loaded.document, id) };
  }

  function track(context: DocumentContext): DocumentContext {
    live.push(context);
    return context;
  }

  const base = (context: DocumentContext): string => serializeURL(documentBaseURL(context));
  const resolve = (context: DocumentContext, url: string, node?: unknown): string | null => encodingParseAndSerializeURL(context, url, node);

  function label(node: unknown): string {
    if (adapter.isDocumentNode(node)) return "#document";
    if (adapter.isElementNode(node)) return adapter.getAttribute(node, null, "id") ?? adapter.getLocalName(node);
    return "#node";
  }

  /** Records the changes `context` reports, with their roots named. */
  function record(context: DocumentContext): NamedChange[] {
    const changes: NamedChange[] = [];
    context.onBaseURLChange((change) => {
      changes.push({ reason: change.reason, roots: change.roots.map(label), oldBaseURL: change.oldBaseURL, newBaseURL: change.newBaseURL });
    });
    return changes;
  }

  // --- Mutations, each reported to the context, as a tree without observation needs ---

  function element(document: unknown, localName: string, attributes: Record<string, string> = {}, namespace = HTML_NAMESPACE): unknown {
    const el = kit.createElement(document, localName, namespace);
    for (const [name, value] of Object.entries(attributes)) adapter.setAttribute(el, null, name, value);
    return el;
  }

  function insert(context: DocumentContext, parent: unknown, node: unknown, before?: unknown): void {
    const oldParent = kit.parent(node);
    if (oldParent !== null) {
      kit.remove(node);
      context.childrenChanged(oldParent, { removed: [node] });
    }
    if (before === undefined) kit.append(parent, node);
    else kit.insertBefore(parent, node, before);
    context.childrenChanged(parent, { added: [node] });
  }

  function remove(context: DocumentContext, node: unknown): void {
    const parent = kit.remove(node);
    context.childrenChanged(parent, { removed: [node] });
  }

  function setAttribute(context: DocumentContext, el: unknown, name: string, value: string, namespace: string | null = null): void {
    const old = adapter.getAttribute(el, namespace, name);
    adapter.setAttribute(el, namespace, name, value, namespace === XML_NAMESPACE ? "xml" : null);
    context.attributeChanged(el, namespace, name, old);
  }

  function removeAttribute(context: DocumentContext, el: unknown, name: string, namespace: string | null = null): void {
    const old = adapter.getAttribute(el, namespace, name);
    adapter.removeAttribute(el, namespace, name);
    context.attributeChanged(el, namespace, name, old);
  }

  const setXMLBase = (context: DocumentContext, el: unknown, value: string): void => setAttribute(context, el, "base", value, XML_NAMESPACE);

  /** Sets an attribute named "xml:base" in no namespace, as the HTML parser makes it (the DOM: `setAttribute`, when there is no namespaced one). */
  function setParserXMLBase(context: DocumentContext, el: unknown, value: string): void {
    const old = adapter.getAttribute(el, null, "xml:base");
    if (kit.name === "jsdom") (el as Element).setAttribute("xml:base", value);
    else adapter.setAttribute(el, null, "xml:base", value);
    context.attributeChanged(el, null, "xml:base", old);
  }

  // ================================================================================================
  describe("the document base URL (catalogue §0.1–§0.2, §1a, §1b)", () => {
    it("without a base element, is the document URL", () => {
      const { document, context, $ } = open('<p id="p">x</p>');
      expect(base(context)).toBe(P);
      expect(baseURI(context, document)).toBe(P);
      expect(baseURI(context, $("p"))).toBe(P);
      expect(resolve(context, "foo")).toBe(Pdir + "foo");
    });

    it("document-base-url.html: appending <base href=/foo/bar> to the head; baseURI === base.href", () => {
      const { document, context, $ } = open('<head id="head"></head><body><img id="img" src="foo"></body>');
      const b = element(document, "base", { href: "/foo/bar" });
      insert(context, $("head"), b);
      expect(base(context)).toBe(O + "/foo/bar");
      expect(baseElementHref(context, b)).toBe(base(context));
      expect(resolve(context, adapter.getAttribute($("img"), null, "src")!, $("img"))).toBe(O + "/foo/foo");
    });

    it("multiple-base.html: the first base with an href wins; a base with only target is skipped", () => {
      const { context, $ } = open(
        '<base id="t" target="_blank"><base id="b1" href="http://www.w3c-test.org/"><base id="b2" href="http://www.example.org/"><base id="b3" href="http://www.example.com/">',
      );
      expect(base(context)).toBe("http://www.w3c-test.org/");
      expect(serializeURL(frozenBaseURL(context, $("b1"))!)).toBe("http://www.w3c-test.org/");
      expect(frozenBaseURL(context, $("b2"))).toBeNull();
      expect(frozenBaseURL(context, $("t"))).toBeNull();
    });

    it("base_href_unspecified.html: a base with only target is ignored, and its href getter gives the document URL", () => {
      const { context, $ } = open('<base id="t" target="_blank"><img id="img" src="x.png">');
      expect(base(context)).toBe(P);
      expect(baseElementHref(context, $("t"))).toBe(P);
      expect(resolve(context, "x.png", $("img"))).toBe(Pdir + "x.png");
    });

    it("base_href_empty.html: href='' gives the document URL (without its fragment)", () => {
      const page = open('<base id="b" href="">');
      expect(baseElementHref(page.context, page.$("b"))).toBe(P);
      expect(base(page.context)).toBe(P);
      const withFragment = open('<base id="b" href="">', { url: P + "#frag" });
      expect(baseElementHref(withFragment.context, withFragment.$("b"))).toBe(P);
      expect(base(withFragment.context)).toBe(P);
      expect(serializeURL(fallbackBaseURL(withFragment.context))).toBe(P + "#frag");
    });

    it("base_href_specified.html: an absolute base", () => {
      const { context, $ } = open('<base id="b" href="http://www.example.com"><img id="img" src="test.ico">');
      expect(baseElementHref(context, $("b"))).toBe("http://www.example.com/");
      expect(resolve(context, "test.ico", $("img"))).toBe("http://www.example.com/test.ico");
    });

    it("a base in the body counts; the first in tree order wins wherever it is", () => {
      expect(base(open('<body><p><base href="/in-body/"></p></body>').context)).toBe(O + "/in-body/");
      expect(base(open('<head><base href="/head/"></head><body><base href="/body/"></body>').context)).toBe(O + "/head/");
    });

    it("a base in template contents is not in the document; its href getter uses the inert document (about:blank)", () => {
      const { context, $ } = open(
        '<head><template><base id="abs" href="http://template.example/"><base id="rel" href="sub/"></template></head><body><template><base href="/also-not/"></template></body>',
      );
      expect(base(context)).toBe(P);
      expect(baseElementHref(context, $("abs"))).toBe("http://template.example/");
      expect(baseElementHref(context, $("rel"))).toBe("sub/");
      expect(frozenBaseURL(context, $("abs"))).toBeNull();
    });

    it("template contents belong to an inert document whose base URL is about:blank", () => {
      const { context, $ } = open('<base href="/b/"><template id="tpl"><a id="t" href="x">x</a></template><a id="a" href="x">x</a>');
      expect(baseURI(context, $("a"))).toBe(O + "/b/");
      expect(baseURI(context, $("tpl"))).toBe(O + "/b/");
      expect(baseURI(context, $("t"))).toBe("about:blank");
      expect(resolve(context, "x", $("t"))).toBeNull();
      expect(resolve(context, "http://a.example/x", $("t"))).toBe("http://a.example/x");
      expect(baseURI(context, adapter.getTemplateContent($("tpl")))).toBe("about:blank");
    });

    it("a template inserted into template contents, after the contents were asked about, keeps its own contents inert", () => {
      const { document, context, $ } = open('<base href="/b/"><template id="tpl"><p id="p"></p></template><div id="d"></div>');
      expect(baseURI(context, $("p"))).toBe("about:blank");
      const [inner, outer] = [element(document, "template"), element(document, "template")];
      const [a, b] = [element(document, "a", { href: "x" }), element(document, "a", { href: "x" })];
      kit.append(adapter.getTemplateContent(inner), a);
      kit.append(adapter.getTemplateContent(outer), b);
      insert(context, $("p"), inner);
      insert(context, $("d"), outer);
      expect([baseURI(context, a), nodeDocumentURL(context, a)]).toEqual(["about:blank", "about:blank"]);
      expect([baseURI(context, b), nodeDocumentURL(context, b)]).toEqual(["about:blank", "about:blank"]);
    });

    it("an SVG or MathML element named base is not a base element", () => {
      const foreign = open('<svg><base id="s" href="http://svg.example/"/></svg><math><base id="m" href="http://math.example/"/></math>');
      expect(adapter.getNamespaceURI(foreign.$("s"))).toBe(SVG_NAMESPACE);
      expect(adapter.getNamespaceURI(foreign.$("m"))).toBe(MATHML_NAMESPACE);
      expect(base(foreign.context)).toBe(P);
      expect(base(open('<svg><base href="http://svg.example/"/></svg><base href="/html/">').context)).toBe(O + "/html/");
    });

    it("base-data.html: a data: base is unusable, and still occupies the first slot", () => {
      const { document, context, $ } = open('<head id="head"><base id="d" href="data:/,test"><base href="https://example.com/"></head><a id="a">x</a>');
      const changes = record(context);
      expect(resolve(context, "blah", $("a"))).toBe(Pdir + "blah");
      remove(context, $("d"));
      expect(resolve(context, "blah", $("a"))).toBe("https://example.com/blah");
      const more = element(document, "base", { href: "data:/,more-test" });
      insert(context, $("head"), more, kit.children($("head"))[0]);
      expect(resolve(context, "blah", $("a"))).toBe(Pdir + "blah");
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: P, newBaseURL: "https://example.com/" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: "https://example.com/", newBaseURL: P },
      ]);
    });

    it("base-javascript.html: a javascript: base is unusable, and still occupies the first slot", () => {
      const { document, context, $ } = open('<head id="head"><base id="j" href="javascript:/,test"><base href="https://example.com/"></head><a id="a">x</a>');
      expect(resolve(context, "blah", $("a"))).toBe(Pdir + "blah");
      remove(context, $("j"));
      expect(resolve(context, "blah", $("a"))).toBe("https://example.com/blah");
      insert(context, $("head"), element(document, "base", { href: "javascript:/,more-test" }), kit.children($("head"))[0]);
      expect(resolve(context, "blah", $("a"))).toBe(Pdir + "blah");
    });

    it("base_href_data.html: resources resolve against the document, while base.href returns the data: URL", () => {
      const { context, $ } = open('<base id="b" href="data:/,This is a data URL."><img id="img" src="/images/green-256x256.png">');
      expect(resolve(context, "/images/green-256x256.png", $("img"))).toBe(O + "/images/green-256x256.png");
      // The URL parser percent-encodes the spaces of a (non-opaque) path.
      expect(baseElementHref(context, $("b"))).toBe("data:/,This%20is%20a%20data%20URL.");
    });

    it("base_href_invalid.html: an href that does not parse: base.href is the raw value, the base URL the fallback", () => {
      for (const href of ["//test:test", "http://test:test/", "http://[::1"]) {
        const { context, $ } = open(`<base id="b" href="${href}">`);
        expect(baseElementHref(context, $("b"))).toBe(href);
        expect(base(context)).toBe(P);
        context.dispose();
      }
    });

    it("a base element is affected neither by itself nor by another base", () => {
      const { context, $ } = open('<base id="b1" href="a/"><base id="b2" href="b/">');
      expect(base(context)).toBe(Pdir + "a/");
      expect(baseElementHref(context, $("b1"))).toBe(Pdir + "a/");
      expect(baseElementHref(context, $("b2"))).toBe(Pdir + "b/");
    });
  });

  // ================================================================================================
  describe("Node.baseURI (catalogue §0.5, §1e Node-baseURI.html)", () => {
    it("is the document base URL for connected, never-inserted and fragment nodes alike", () => {
      const { document, context, $ } = open('<base href="/b/"><p id="p">text</p>');
      const expected = O + "/b/";
      expect(baseURI(context, $("p"))).toBe(expected);
      expect(baseURI(context, kit.children($("p"))[0])).toBe(expected); // a text node
      const detached = kit.createElement(document, "div");
      expect(baseURI(context, detached)).toBe(expected);
      expect(serializeURL(elementBaseURL(context, detached))).toBe(expected);
      const fragment = kit.createFragment(document);
      const inFragment = kit.createElement(document, "span");
      kit.append(fragment, inFragment);
      expect(baseURI(context, fragment)).toBe(expected);
      expect(baseURI(context, inFragment)).toBe(expected);
      expect(baseURI(context, kit.createText(document, "t"))).toBe(expected);
      insert(context, $("p"), inFragment);
      expect(baseURI(context, inFragment)).toBe(expected);
    });
  });

  // ================================================================================================
  describe("synthetic documents (document-base-uri-synthetic-document.html)", () => {
    it("have base URL about:blank; a relative base fails to parse and leaves it; an absolute one works", () => {
      const document = kit.createSyntheticDocument('<head id="h"></head><body id="b"></body>');
      const context = track(createDocumentContext(adapter, document));
      const changes = record(context);
      expect(context.url).toBe("about:blank");
      expect(base(context)).toBe("about:blank");
      const b = element(document, "base", { href: "/foo" });
      insert(context, kit.byId(document, "h"), b);
      expect(base(context)).toBe("about:blank");
      expect(baseElementHref(context, b)).toBe("/foo");
      setAttribute(context, b, "href", "http://example.com/");
      expect(base(context)).toBe("http://example.com/");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: "about:blank", newBaseURL: "http://example.com/" }]);
    });
  });

  // ================================================================================================
  describe("about:blank and srcdoc documents: the about base URL snapshot (catalogue §0.3, §1a–§1c)", () => {
    for (const childURL of ["about:blank", "about:srcdoc"]) {
      it(`${childURL === "about:blank" ? "base_about_blank" : "base_srcdoc"}.html: a relative base resolves against the creator's base URL`, () => {
        const parent = open("<p>parent</p>");
        const child = open('<head id="h"></head>', { url: childURL, aboutBaseURL: parent.context });
        expect(baseURI(child.context, child.document)).toBe(P);
        const b = element(child.document, "base", { href: "test" });
        expect(baseElementHref(child.context, b)).toBe(Pdir + "test");
        insert(child.context, child.$("h"), b);
        expect(baseURI(child.context, child.document)).toBe(Pdir + "test");
        expect(child.context.url).toBe(childURL);
      });

      it(`${childURL}: the snapshot does not follow the creator's later changes, nor its disposal`, () => {
        const parent = open('<head id="h"></head>');
        const child = open("<p>child</p>", { url: childURL, aboutBaseURL: parent.context });
        const childChanges = record(child.context);
        const parentChanges = record(parent.context);
        insert(parent.context, parent.$("h"), element(parent.document, "base", { href: "https://foo.com" }));
        expect(base(parent.context)).toBe("https://foo.com/");
        expect(base(child.context)).toBe(P);
        parent.context.dispose();
        expect(base(child.context)).toBe(P);
        expect(child.context.aboutBaseURL).toBe(P);
        expect(childChanges).toEqual([]);
        expect(parentChanges).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: P, newBaseURL: "https://foo.com/" }]);
      });
    }

    it("document-base-url.html (3)–(6): about:blank and srcdoc children resolve against the parent's base URL, a relative base inside against it", () => {
      const parent = open("<p>parent</p>");
      const blank = open('<body id="body"></body>', { url: "about:blank", aboutBaseURL: parent.context });
      expect(resolve(blank.context, "foo")).toBe(Pdir + "foo");
      insert(blank.context, blank.$("body"), element(blank.document, "base", { href: "sub/" }));
      expect(resolve(blank.context, "foo")).toBe(Pdir + "sub/foo");
      expect(base(blank.context)).toBe(Pdir + "sub/");
      const srcdoc = open("<p>foobar</p>", { url: "about:srcdoc", aboutBaseURL: parent.context });
      expect(base(srcdoc.context)).toBe(base(parent.context));
      expect(resolve(srcdoc.context, "foo")).toBe(Pdir + "foo");
      const srcdocWithBase = open("<base href='sub/'><p>foobar</p>", { url: "about:srcdoc", aboutBaseURL: parent.context });
      expect(base(srcdocWithBase.context)).toBe(Pdir + "sub/");
      expect(resolve(srcdocWithBase.context, "foo")).toBe(Pdir + "sub/foo");
    });

    it("a child of a parent with a base inherits that base (document-base-url-document-open.html's setup)", () => {
      const parent = open('<base href="/base-url-override/">');
      for (const url of ["about:blank", "about:srcdoc"]) {
        const child = open("<p>x</p>", { url, aboutBaseURL: parent.context });
        expect(base(child.context)).toBe(O + "/base-url-override/");
      }
    });

    it("matches-about-blank-base-url: about:blank?query#fragment uses the about base URL; without one, the URL itself", () => {
      const parent = open("<p>parent</p>");
      const child = open("<p>x</p>", { url: "about:blank?query#fragment", aboutBaseURL: parent.context });
      expect(child.context.url).toBe("about:blank?query#fragment");
      expect(base(child.context)).toBe(P);
      const orphan = open("<p>x</p>", { url: "about:blank?query#fragment" });
      expect(base(orphan.context)).toBe("about:blank?query#fragment");
    });

    it("nontraditional-about-srcdoc: replaceState('about:srcdoc#foo') and document.open() keep a srcdoc document one", () => {
      const parent = open("<p>parent</p>");
      const child = open("<p>x</p>", { url: "about:srcdoc", aboutBaseURL: parent.context });
      child.context.urlChanged("about:srcdoc#foo");
      expect(child.context.url).toBe("about:srcdoc#foo");
      expect(base(child.context)).toBe(P);
      child.context.urlChanged("about:srcdoc");
      expect(base(child.context)).toBe(P);
    });

    it("initiated-grand-parent, initiator-is-not-opener, javascript-nav: the about base URL is the initiator's, carried over", () => {
      const a = open('<base href="https://a.example/base/">', { url: "https://a.example/" });
      const b = open("<p>b</p>", { url: "https://b.example/page#interesting-fragment" });
      const c = open("<p>c</p>", { url: "about:blank", aboutBaseURL: a.context });
      expect(base(c.context)).toBe("https://a.example/base/");
      expect(base(c.context)).not.toBe(base(b.context));
      // A javascript: URL navigation of c: the new about:blank document takes c's base URL.
      const next = open("<p>foo</p>", { url: "about:blank", aboutBaseURL: c.context });
      expect(base(next.context)).toBe("https://a.example/base/");
    });

    it("changes-about-srcdoc-2 / non-srcdoc ⇒ srcdoc: document.open() from another document takes its base as a new snapshot", () => {
      const parent = open("<p>parent</p>");
      const child = open('<head id="h"></head>', { url: "about:srcdoc", aboutBaseURL: parent.context });
      const grandchild = open("<p>grandchild</p>", { url: O + "/common/blank.html" });
      expect(base(grandchild.context)).toBe(O + "/common/blank.html");
      grandchild.context.urlChanged("about:srcdoc", { aboutBaseURL: child.context });
      expect(base(grandchild.context)).toBe(P);
      insert(child.context, child.$("h"), element(child.document, "base", { href: "https://remote.example/" }));
      expect(base(child.context)).toBe("https://remote.example/");
      expect(base(grandchild.context)).toBe(P);
    });

    it("an about:srcdoc document without an about base URL uses its URL (the standard asserts it has one)", () => {
      expect(base(open("<p>x</p>", { url: "about:srcdoc" }).context)).toBe("about:srcdoc");
    });

    it("an about base URL can be given as a URL", () => {
      const { context } = open("<base href='x/'>", { url: "about:blank", aboutBaseURL: "https://given.example/dir/" });
      expect(base(context)).toBe("https://given.example/dir/x/");
    });
  });

  // ================================================================================================
  describe("the frozen base URL and the document URL (history.pushState, document.open)", () => {
    it("without a base, the document base URL follows the document URL", () => {
      const { context } = open("<p>x</p>");
      const changes = record(context);
      context.urlChanged(O + "/other/page");
      expect(base(context)).toBe(O + "/other/page");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: P, newBaseURL: O + "/other/page" }]);
    });

    it("with a base, its frozen base URL stays until the base becomes first again or its href changes", () => {
      const { context, $ } = open('<head id="h"><base id="b" href="sub/"></head>');
      const changes = record(context);
      context.urlChanged(O + "/elsewhere/x");
      expect(base(context)).toBe(Pdir + "sub/");
      expect(serializeURL(frozenBaseURL(context, $("b"))!)).toBe(Pdir + "sub/");
      // The getter parses against the current fallback base URL.
      expect(baseElementHref(context, $("b"))).toBe(O + "/elsewhere/sub/");
      const b = $("b");
      remove(context, b);
      insert(context, $("h"), b);
      expect(base(context)).toBe(O + "/elsewhere/sub/");
      setAttribute(context, b, "href", "sub/");
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: Pdir + "sub/", newBaseURL: O + "/elsewhere/x" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/elsewhere/x", newBaseURL: O + "/elsewhere/sub/" },
      ]);
    });

    it("rejects a document URL that is not absolute", () => {
      const { context } = open("<p>x</p>");
      expect(() => context.urlChanged("/relative")).toThrow(/not an absolute URL: "\/relative"/);
    });
  });

  // ================================================================================================
  describe("document base URL change propagation (catalogue §0.7, §1d dynamic-urls)", () => {
    const page = '<head id="h"><base id="b" href="/one/"></head><body id="body"><a id="a" href="test.txt">x</a><img id="img" src="test.txt"></body>';

    it("base_href_specified.sub / dynamic-urls: changing the first base's href re-resolves every URL at once, one change", () => {
      const { context, $ } = open(page);
      const changes = record(context);
      expect(resolve(context, "test.txt", $("a"))).toBe(O + "/one/test.txt");
      setAttribute(context, $("b"), "href", "http://www.example.org:8080");
      expect(baseElementHref(context, $("b"))).toBe("http://www.example.org:8080/");
      expect(resolve(context, "test.txt", $("a"))).toBe("http://www.example.org:8080/test.txt");
      expect(resolve(context, "test.txt", $("img"))).toBe("http://www.example.org:8080/test.txt");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: "http://www.example.org:8080/" }]);
    });

    it("an href change that resolves to the same URL changes nothing", () => {
      const { context, $ } = open(page);
      const changes = record(context);
      setAttribute(context, $("b"), "href", "https://example.com/one/");
      setAttribute(context, $("b"), "href", "../one/./");
      expect(changes).toEqual([]);
    });

    it("inserting a base before the first changes it; after it, nothing", () => {
      const { document, context, $ } = open(page);
      const changes = record(context);
      insert(context, $("body"), element(document, "base", { href: "/late/" }));
      expect(base(context)).toBe(O + "/one/");
      insert(context, $("h"), element(document, "base", { id: "early", href: "/early/" }), $("b"));
      expect(base(context)).toBe(O + "/early/");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: O + "/early/" }]);
    });

    it("removing the first base falls back to the next one; removing another changes nothing", () => {
      const { context, $ } = open('<head><base id="b1" href="/one/"><base id="b2" href="/two/"><base id="b3" href="/three/"></head>');
      const changes = record(context);
      remove(context, $("b3"));
      remove(context, $("b1"));
      expect(base(context)).toBe(O + "/two/");
      remove(context, $("b2"));
      expect(base(context)).toBe(P);
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: O + "/two/" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/two/", newBaseURL: P },
      ]);
    });

    it("a base gaining an href becomes first if it precedes the first; losing it hands over", () => {
      const { context, $ } = open('<head><base id="t" target="x"><base id="b" href="/one/"><base id="late" target="y"></head>');
      const changes = record(context);
      setAttribute(context, $("late"), "href", "/late/");
      setAttribute(context, $("t"), "href", "/t/");
      removeAttribute(context, $("t"), "href");
      expect(base(context)).toBe(O + "/one/");
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: O + "/t/" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/t/", newBaseURL: O + "/one/" },
      ]);
    });

    it("changes nothing for other attributes, other elements, SVG bases, detached bases and template contents", () => {
      const { document, context, $ } = open(
        '<head id="h"><base id="b" href="/one/"></head><body id="body"><a id="a" href="x">x</a><svg><base id="s" href="/svg/"/></svg><template id="tpl"></template></body>',
      );
      const changes = record(context);
      setAttribute(context, $("b"), "target", "_blank");
      setAttribute(context, $("a"), "href", "/elsewhere/");
      setAttribute(context, $("s"), "href", "/svg2/");
      const detached = element(document, "base", { href: "/detached/" });
      setAttribute(context, detached, "href", "/detached2/");
      const content = adapter.getTemplateContent($("tpl"));
      const inTemplate = element(document, "base", { href: "/template/" });
      kit.append(content, inTemplate);
      context.childrenChanged(content, { added: [inTemplate] });
      insert(context, $("body"), element(document, "p"));
      expect(base(context)).toBe(O + "/one/");
      expect(changes).toEqual([]);
    });

    it("one change, not one per element, for a document of 1,000 elements; removing the listener stops it", () => {
      const { context, $ } = open(`<head><base id="b" href="/one/"></head><body>${'<p><a href="x">x</a></p>'.repeat(500)}</body>`);
      let calls = 0;
      const off = context.onBaseURLChange(() => calls++);
      setAttribute(context, $("b"), "href", "/two/");
      expect(calls).toBe(1);
      off();
      setAttribute(context, $("b"), "href", "/three/");
      expect(calls).toBe(1);
      expect(base(context)).toBe(O + "/three/");
    });

    it("every listener runs even when one throws; then the error is rethrown", () => {
      const { context, $ } = open('<base id="b" href="/one/">');
      const seen: string[] = [];
      context.onBaseURLChange(() => {
        seen.push("first");
        throw new Error("listener failed");
      });
      context.onBaseURLChange((change) => seen.push(change.newBaseURL));
      expect(() => setAttribute(context, $("b"), "href", "/two/")).toThrow("listener failed");
      expect(seen).toEqual(["first", O + "/two/"]);
      expect(base(context)).toBe(O + "/two/");
    });

    it("a listener sees the new values, and the change names its context", () => {
      const { context, $ } = open('<base id="b" href="/one/"><a id="a">x</a>');
      let seen: string | null = null;
      let from: unknown = null;
      context.onBaseURLChange((change) => {
        seen = resolve(context, "x", $("a"));
        from = change.context;
      });
      setAttribute(context, $("b"), "href", "/two/");
      expect(seen).toBe(O + "/two/x");
      expect(from).toBe(context);
    });
  });

  // ================================================================================================
  describe("adoption: moving nodes to another document", () => {
    it("reports the moved root once when the two documents' base URLs differ, and nothing when they match", () => {
      const source = open('<base href="https://source.example/"><div id="moved"><a id="a" href="x">x</a></div><p id="same">y</p>', { url: "https://source.example/page" });
      const target = open('<base href="https://target.example/"><body id="body"></body>', { url: "https://target.example/page" });
      const same = open('<base href="https://source.example/"><body id="body"></body>');
      const changes = record(target.context);
      const sameChanges = record(same.context);
      const moved = source.$("moved");
      const a = source.$("a");
      expect(resolve(source.context, "x", a)).toBe("https://source.example/x");
      remove(source.context, moved);
      kit.adopt(target.document, moved);
      target.context.adopted(moved, source.context);
      insert(target.context, target.$("body"), moved);
      expect(resolve(target.context, "x", a)).toBe("https://target.example/x");
      expect(baseURI(target.context, moved)).toBe("https://target.example/");
      const p = source.$("same");
      remove(source.context, p);
      kit.adopt(same.document, p);
      same.context.adopted(p, source.document);
      insert(same.context, same.$("body"), p);
      expect(changes).toEqual([{ reason: "adopted", roots: ["moved"], oldBaseURL: "https://source.example/", newBaseURL: "https://target.example/" }]);
      expect(sameChanges).toEqual([]);
    });

    it("an element moved out of template contents into the document takes the document's base URL", () => {
      const { context, $ } = open('<base href="/b/"><template id="tpl"><a id="t" href="x">x</a></template><div id="d"></div>');
      const t = $("t");
      expect(baseURI(context, t)).toBe("about:blank");
      const content = adapter.getTemplateContent($("tpl"));
      kit.remove(t);
      context.childrenChanged(content, { removed: [t] });
      kit.adopt(context.document, t);
      kit.append($("d"), t);
      context.childrenChanged($("d"), { added: [t] });
      expect(baseURI(context, t)).toBe(O + "/b/");
      expect(resolve(context, "x", t)).toBe(O + "/b/x");
    });
  });

  // ================================================================================================
  describe("declarative shadow roots (HTML parsing, 'in head': a start tag whose tag name is \"template\")", () => {
    // parse5 8.1 and jsdom 31 keep <template shadowrootmode> as a template; a browser's parser
    // attaches a shadow root to its parent instead, whose node document is the document.
    const host = (inner: string, hostTag = "div", mode = "open") =>
      `<head><base href="/b/"></head><body><${hostTag} id="host"><template id="tpl" shadowrootmode="${mode}">${inner}</template></${hostTag}></body>`;

    it("its contents belong to the document: the document base URL, the document URL, not about:blank", () => {
      const { context, $ } = open(host('<a id="a" href="x">x</a><form id="f"></form>'));
      expect(baseURI(context, $("a"))).toBe(O + "/b/");
      expect(resolve(context, "x", $("a"))).toBe(O + "/b/x");
      expect(serializeURL(elementBaseURL(context, $("a")))).toBe(O + "/b/");
      expect(nodeDocumentURL(context, $("f"))).toBe(P);
      expect(baseURI(context, adapter.getTemplateContent($("tpl")))).toBe(O + "/b/");
      // An ordinary template's contents, for contrast.
      const plain = open('<base href="/b/"><template id="tpl"><a id="a" href="x">x</a><form id="f"></form></template>');
      expect(baseURI(plain.context, plain.$("a"))).toBe("about:blank");
      expect(nodeDocumentURL(plain.context, plain.$("f"))).toBe("about:blank");
    });

    it("a base element in a shadow root is not the document's first base (tree order does not enter shadow trees)", () => {
      const { context, $ } = open('<body><div><template shadowrootmode="open"><base id="sb" href="/shadow/"><a id="a" href="x">x</a></template></div><a id="d" href="x">x</a></body>');
      expect(base(context)).toBe(P);
      expect(frozenBaseURL(context, $("sb"))).toBeNull();
      // Its href getter parses against its node document's fallback base URL: the document's.
      expect(baseElementHref(context, $("sb"))).toBe(O + "/shadow/");
      expect(baseURI(context, $("a"))).toBe(P);
      expect(resolve(context, "x", $("a"))).toBe(Pdir + "x");
    });

    it("the mode is open or closed, ASCII case-insensitively; the host is a valid shadow host name or a custom element name", () => {
      for (const [mode, hostTag] of [
        ["closed", "div"],
        ["OPEN", "section"],
        ["ClOsEd", "span"],
        ["open", "my-card"],
        ["open", "blockquote"],
        ["open", "h6"],
        ["open", "main"],
      ] as const) {
        const { context, $ } = open(host('<a id="a" href="x">x</a>', hostTag, mode));
        expect(baseURI(context, $("a")), `${hostTag} ${mode}`).toBe(O + "/b/");
      }
      // The body is a host too.
      const body = open('<head><base href="/b/"></head><body><template shadowrootmode="open"><a id="a" href="x">x</a></template></body>');
      expect(baseURI(body.context, body.$("a"))).toBe(O + "/b/");
    });

    it("stays an inert template: no or an invalid mode, a host that cannot have a shadow root, a reserved custom element name", () => {
      const cases = [
        '<div><template><a id="a">x</a></template></div>',
        '<div><template shadowrootmode="invalid"><a id="a">x</a></template></div>',
        '<div><template shadowrootmode=""><a id="a">x</a></template></div>',
        '<div><template shadowrootmode="open "><a id="a">x</a></template></div>',
        '<div><template shadowroot="open"><a id="a">x</a></template></div>',
        '<p><a><template shadowrootmode="open"><i id="a">x</i></template></a></p>',
        '<p><button><template shadowrootmode="open"><i id="a">x</i></template></button></p>',
        '<ul><li><template shadowrootmode="open"><i id="a">x</i></template></li></ul>',
        '<table><template shadowrootmode="open"><i id="a">x</i></template></table>',
        '<font-face><template shadowrootmode="open"><i id="a">x</i></template></font-face>',
        '<template shadowrootmode="open"><i id="a">x</i></template>',
      ];
      for (const html of cases) {
        const { context, $ } = open(`<head><base href="/b/"></head><body>${html}</body>`.replace("<body><template", "<template"));
        expect(baseURI(context, $("a")), html).toBe("about:blank");
      }
      // In the head: the host would be the head element.
      const head = open('<head><template shadowrootmode="open"><a id="a">x</a></template></head>');
      expect(baseURI(head.context, head.$("a"))).toBe("about:blank");
    });

    it("a second declarative template in the same host stays a template", () => {
      const { context, $ } = open(
        '<base href="/b/"><div><template shadowrootmode="open"><a id="first">x</a></template><template shadowrootmode="closed"><a id="second">x</a></template></div>',
      );
      expect(baseURI(context, $("first"))).toBe(O + "/b/");
      expect(baseURI(context, $("second"))).toBe("about:blank");
      // An earlier template without a valid mode does not make its parent a shadow host.
      const after = open('<base href="/b/"><div><template shadowrootmode="x"><a id="inert">x</a></template><template shadowrootmode="open"><a id="shadow">x</a></template></div>');
      expect(baseURI(after.context, after.$("inert"))).toBe("about:blank");
      expect(baseURI(after.context, after.$("shadow"))).toBe(O + "/b/");
    });

    it("nested: a shadow root in a shadow root is the document's; one in template contents, and a template in a shadow root, are inert", () => {
      const { context, $ } = open(
        '<base href="/b/"><div><template shadowrootmode="open"><span><template shadowrootmode="open"><a id="deep">x</a></template></span>' +
          '<template id="plain"><a id="plainInShadow">x</a></template></template></div>' +
          '<template><div><template shadowrootmode="open"><a id="shadowInPlain">x</a></template></div></template>',
      );
      expect(baseURI(context, $("deep"))).toBe(O + "/b/");
      expect(baseURI(context, $("plainInShadow"))).toBe("about:blank");
      expect(baseURI(context, $("shadowInPlain"))).toBe("about:blank");
    });

    it("nested: a reported move of an inner host out of its shadow root is followed (what is remembered of the chain of hosts is forgotten)", () => {
      const { context, $ } = open(
        '<base href="/b/"><div id="h1"><template shadowrootmode="open"><div id="h2"><template shadowrootmode="open"><a id="a">x</a></template></div></template></div>' +
          '<template id="plain"></template><section id="doc"></section>',
      );
      expect(baseURI(context, $("a"))).toBe(O + "/b/");
      // Into an ordinary template's contents: the inert document.
      insert(context, adapter.getTemplateContent($("plain")), $("h2"));
      expect(baseURI(context, $("a"))).toBe("about:blank");
      // Into the document, where the template keeps its contents (it was the parser's).
      insert(context, $("doc"), $("h2"));
      expect(baseURI(context, $("a"))).toBe(O + "/b/");
    });

    it("fragment parsing does not attach: a root fragment, and templates inserted by innerHTML", () => {
      const fragment = kit.loadFragment('<base href="/b/"><div><template shadowrootmode="open"><a id="a">x</a></template></div>');
      if (fragment !== null) {
        const context = track(createDocumentContext(adapter, fragment, { url: P }));
        expect(baseURI(context, kit.byId(fragment, "a"))).toBe("about:blank");
      }
      const { context, $ } = open('<base href="/b/"><div id="target"></div><div><template shadowrootmode="open"><a id="parsed">x</a></template></div>');
      const added = kit.setInnerHTML($("target"), '<div><template shadowrootmode="open"><a id="inner">x</a></template></div>');
      context.childrenChanged($("target"), { added });
      expect(baseURI(context, $("inner"))).toBe("about:blank");
      expect(baseURI(context, $("parsed"))).toBe(O + "/b/");
      // The same once the document's declarative shadow roots have been found.
      const second = kit.setInnerHTML($("target"), '<div><template shadowrootmode="open"><a id="again">x</a></template></div>');
      context.childrenChanged($("target"), { added: second });
      expect(baseURI(context, $("again"))).toBe("about:blank");
    });

    it("known limit, enforced: the adoption agency moves the template into a clone of an a, and the tree no longer shows its host", () => {
      // A browser attached the shadow root to the div before </a> ran the adoption agency
      // algorithm; parse5 moves the template (a child of the div) into the new a. Links
      // extraction, which sees the parse as it happens, gets it right (test/links/extract.test.ts).
      const { context, $ } = open('<base href="/b/"><a><div id="div"><template shadowrootmode="open"><i id="i">x</i></template></a>');
      expect(adapter.getLocalName(kit.children($("div"))[0])).toBe("a");
      expect(baseURI(context, $("i"))).toBe("about:blank");
    });

    it("with xml:base on, a shadow root's elements start from the document base URL, not from their host's xml:base", () => {
      const { context, $ } = open('<base href="/b/"><div id="host"><template shadowrootmode="open"><p id="p"><a id="a">x</a></p></template></div>', { xmlBase: true });
      setXMLBase(context, $("host"), "http://host.example/");
      setXMLBase(context, $("p"), "p/");
      expect(baseURI(context, $("host"))).toBe("http://host.example/");
      expect(baseURI(context, $("a"))).toBe(O + "/b/p/");
    });
  });

  // ================================================================================================
  describe("xml:base (HTML 5 and XML Base; opt-in, catalogue §0.6)", () => {
    const page =
      '<html id="h"><head id="head"></head><body id="body"><div id="d1"><p id="p1"><a id="a1" href="x">x</a></p></div><div id="d2"><a id="a2" href="y">y</a></div></body></html>';

    it("is ignored without the option (historical.sub.xhtml)", () => {
      const { context, $ } = open(page);
      setXMLBase(context, $("h"), "http://www.example.org/");
      setXMLBase(context, $("d1"), "sub/");
      expect(baseURI(context, $("a1"))).toBe(P);
      expect(resolve(context, "test.txt", $("a1"))).toBe(Pdir + "test.txt");
      expect(serializeURL(elementBaseURL(context, $("d1")))).toBe(P);
    });

    it("on the root element resolves against the document base URL", () => {
      const { context, $ } = open(page, { xmlBase: true });
      setXMLBase(context, $("h"), "root/");
      expect(baseURI(context, $("h"))).toBe(Pdir + "root/");
      expect(baseURI(context, $("a1"))).toBe(Pdir + "root/");
      expect(resolve(context, "x", $("a1"))).toBe(Pdir + "root/x");
      // The document's own base URL is not an element's.
      expect(baseURI(context, context.document)).toBe(P);
      expect(resolve(context, "x")).toBe(Pdir + "x");
    });

    it("chains relative values on relative values; an absolute value resets the chain", () => {
      const { context, $ } = open(page, { xmlBase: true });
      setXMLBase(context, $("h"), "http://example.org/a/");
      setXMLBase(context, $("d1"), "b/");
      setXMLBase(context, $("p1"), "c/");
      expect(baseURI(context, $("p1"))).toBe("http://example.org/a/b/c/");
      expect(baseURI(context, $("a1"))).toBe("http://example.org/a/b/c/");
      expect(baseURI(context, $("d2"))).toBe("http://example.org/a/");
      setXMLBase(context, $("p1"), "https://other.example/x/");
      expect(baseURI(context, $("a1"))).toBe("https://other.example/x/");
      expect(baseURI(context, $("d1"))).toBe("http://example.org/a/b/");
    });

    it("ignores a value that does not resolve; the empty value is the parent's base URL without fragment", () => {
      const { context, $ } = open(page, { xmlBase: true, url: P + "#frag" });
      setXMLBase(context, $("d1"), "http://test:test/");
      setXMLBase(context, $("p1"), "c/");
      expect(baseURI(context, $("d1"))).toBe(P + "#frag");
      expect(baseURI(context, $("p1"))).toBe(Pdir + "c/");
      setXMLBase(context, $("h"), "");
      expect(baseURI(context, $("h"))).toBe(P);
      expect(baseURI(context, context.document)).toBe(P + "#frag");
    });

    it("on an HTML element, only counts xml:base in the XML namespace: the HTML parser's xml:base attribute is an ordinary one", () => {
      const { context, $ } = open('<div id="d" xml:base="http://x.example/"><a id="a">x</a></div>', { xmlBase: true });
      expect(adapter.getAttribute($("d"), null, "xml:base")).toBe("http://x.example/");
      expect(adapter.getAttribute($("d"), XML_NAMESPACE, "base")).toBeNull();
      expect(baseURI(context, $("a"))).toBe(P);
    });

    it("counts the HTML parser's xml:base on SVG and MathML elements (HTML 5's \"adjust foreign attributes\"), not on HTML elements", () => {
      const html =
        '<svg id="svg" xml:base="http://svg.example/a/"><g id="g" xml:base="g/"><a id="sa" href="p">p</a></g></svg>' +
        '<math id="math" xml:base="http://math.example/"><mi id="mi">x</mi></math>' +
        '<div id="d" xml:base="http://html.example/"><i id="i">x</i></div>';
      const on = open(html, { xmlBase: true });
      expect(adapter.getAttribute(on.$("g"), null, "xml:base")).toBe("g/");
      expect(baseURI(on.context, on.$("svg"))).toBe("http://svg.example/a/");
      expect(baseURI(on.context, on.$("sa"))).toBe("http://svg.example/a/g/");
      expect(resolve(on.context, "p", on.$("sa"))).toBe("http://svg.example/a/g/p");
      expect(baseURI(on.context, on.$("mi"))).toBe("http://math.example/");
      expect(baseURI(on.context, on.$("i"))).toBe(P);
      expect(baseURI(on.context, on.$("d"))).toBe(P);
      // Off by default.
      const off = open(html);
      expect(baseURI(off.context, off.$("sa"))).toBe(P);
      expect(baseURI(off.context, off.$("mi"))).toBe(P);
    });

    it("the parser's xml:base=\"\" on an SVG element is its parent's base URL without fragment; a relative chain resolves level by level", () => {
      const { context, $ } = open(
        '<svg id="svg" xml:base="http://svg.example/a/b?q#f"><g id="empty" xml:base=""><g id="up" xml:base="../c/"><g id="g" xml:base="d"><rect id="r"/></g></g></g></svg>',
        { xmlBase: true, url: P + "#frag" },
      );
      expect(baseURI(context, $("svg"))).toBe("http://svg.example/a/b?q#f");
      expect(baseURI(context, $("empty"))).toBe("http://svg.example/a/b?q");
      expect(baseURI(context, $("up"))).toBe("http://svg.example/c/");
      expect(baseURI(context, $("r"))).toBe("http://svg.example/c/d");
    });

    it("the parser's xml:base on an SVG element: changes are reported and followed; the XML namespace's wins over it", () => {
      const { context, $ } = open('<svg><g id="g" xml:base="http://one.example/"><a id="a">x</a></g></svg>', { xmlBase: true });
      const changes = record(context);
      expect(baseURI(context, $("a"))).toBe("http://one.example/");
      setParserXMLBase(context, $("g"), "http://two.example/");
      expect(baseURI(context, $("a"))).toBe("http://two.example/");
      setXMLBase(context, $("g"), "http://namespaced.example/");
      expect(baseURI(context, $("a"))).toBe("http://namespaced.example/");
      removeAttribute(context, $("g"), "base", XML_NAMESPACE);
      expect(baseURI(context, $("a"))).toBe("http://two.example/");
      removeAttribute(context, $("g"), "xml:base");
      expect(baseURI(context, $("a"))).toBe(P);
      expect(changes).toEqual([
        { reason: "xml-base", roots: ["g"], oldBaseURL: "http://one.example/", newBaseURL: "http://two.example/" },
        { reason: "xml-base", roots: ["g"], oldBaseURL: "http://two.example/", newBaseURL: "http://namespaced.example/" },
        { reason: "xml-base", roots: ["g"], oldBaseURL: "http://namespaced.example/", newBaseURL: "http://two.example/" },
        { reason: "xml-base", roots: ["g"], oldBaseURL: "http://two.example/", newBaseURL: P },
      ]);
    });

    it("does not affect the base element, whose href resolves against the fallback base URL", () => {
      const { context, $ } = open('<html id="h"><head><base id="b" href="rel/"></head></html>', { xmlBase: true });
      setXMLBase(context, $("h"), "http://xml.example/");
      expect(base(context)).toBe(Pdir + "rel/");
      expect(baseElementHref(context, $("b"))).toBe(Pdir + "rel/");
      expect(baseURI(context, $("b"))).toBe("http://xml.example/");
    });

    it("a child node's base URL is its parent element's; template contents do not inherit from their template", () => {
      const { context, $ } = open('<div id="d">text</div><template id="tpl"><a id="t">x</a></template>', { xmlBase: true });
      setXMLBase(context, $("d"), "http://d.example/");
      setXMLBase(context, $("tpl"), "http://tpl.example/");
      expect(baseURI(context, kit.children($("d"))[0])).toBe("http://d.example/");
      expect(baseURI(context, $("t"))).toBe("about:blank");
    });

    it("a relative document base URL change moves every relative chain, in one change", () => {
      const { context, $ } = open(page.replace('<head id="head"></head>', '<head id="head"><base id="b" href="/one/"></head>'), { xmlBase: true });
      setXMLBase(context, $("d1"), "d1/");
      setXMLBase(context, $("d2"), "https://abs.example/");
      expect(baseURI(context, $("a1"))).toBe(O + "/one/d1/");
      const changes = record(context);
      setAttribute(context, $("b"), "href", "/two/");
      expect(baseURI(context, $("a1"))).toBe(O + "/two/d1/");
      expect(baseURI(context, $("a2"))).toBe("https://abs.example/");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: O + "/two/" }]);
    });

    it("xml:base value changes: one change for the element; its subtree follows, the rest keeps its cached records", () => {
      const { context, $ } = open(page, { xmlBase: true });
      setXMLBase(context, $("d1"), "http://one.example/");
      setXMLBase(context, $("p1"), "p/");
      setXMLBase(context, $("d2"), "two/");
      const before = { d2: elementBaseURL(context, $("d2")), a2: elementBaseURL(context, $("a2")), h: elementBaseURL(context, $("h")) };
      expect(serializeURL(before.a2)).toBe(Pdir + "two/");
      expect(serializeURL(elementBaseURL(context, $("a1")))).toBe("http://one.example/p/");
      const changes = record(context);
      setXMLBase(context, $("d1"), "http://two.example/");
      expect(serializeURL(elementBaseURL(context, $("a1")))).toBe("http://two.example/p/");
      expect(serializeURL(elementBaseURL(context, $("p1")))).toBe("http://two.example/p/");
      expect(elementBaseURL(context, $("d2"))).toBe(before.d2);
      expect(elementBaseURL(context, $("a2"))).toBe(before.a2);
      expect(elementBaseURL(context, $("h"))).toBe(before.h);
      setXMLBase(context, $("d1"), "http://two.example/"); // the same value: no change
      expect(changes).toEqual([{ reason: "xml-base", roots: ["d1"], oldBaseURL: "http://one.example/", newBaseURL: "http://two.example/" }]);
    });

    it("xml:base added and removed: a change each, for exactly that element's subtree", () => {
      const { context, $ } = open(page, { xmlBase: true });
      for (const id of ["h", "d1", "p1", "a1", "d2", "a2"]) expect(baseURI(context, $(id))).toBe(P);
      const d1Record = elementBaseURL(context, $("d1"));
      const changes = record(context);
      setXMLBase(context, $("d2"), "http://d2.example/");
      expect(baseURI(context, $("a2"))).toBe("http://d2.example/");
      expect(elementBaseURL(context, $("d1"))).toBe(d1Record);
      removeAttribute(context, $("d2"), "base", XML_NAMESPACE);
      expect(baseURI(context, $("a2"))).toBe(P);
      expect(changes).toEqual([
        { reason: "xml-base", roots: ["d2"], oldBaseURL: P, newBaseURL: "http://d2.example/" },
        { reason: "xml-base", roots: ["d2"], oldBaseURL: "http://d2.example/", newBaseURL: P },
      ]);
    });

    it("moving an element between xml:base scopes: a change on removal and one on insertion", () => {
      const { context, $ } = open(page, { xmlBase: true });
      setXMLBase(context, $("d1"), "http://one.example/");
      setXMLBase(context, $("d2"), "http://two.example/");
      expect(baseURI(context, $("a1"))).toBe("http://one.example/");
      const changes = record(context);
      insert(context, $("d2"), $("p1"));
      expect(baseURI(context, $("p1"))).toBe("http://two.example/");
      expect(baseURI(context, $("a1"))).toBe("http://two.example/");
      expect(changes).toEqual([
        { reason: "removed", roots: ["p1"], oldBaseURL: "http://one.example/", newBaseURL: P },
        { reason: "inserted", roots: ["p1"], oldBaseURL: P, newBaseURL: "http://two.example/" },
      ]);
    });

    it("several roots inserted at once with the same change are reported together", () => {
      const { document, context, $ } = open(page, { xmlBase: true });
      setXMLBase(context, $("d2"), "http://two.example/");
      const x = element(document, "span", { id: "x" });
      const y = element(document, "span", { id: "y" });
      const changes = record(context);
      kit.append($("d2"), x);
      kit.append($("d2"), y);
      context.childrenChanged($("d2"), { added: [x, y] });
      expect(changes).toEqual([{ reason: "inserted", roots: ["x", "y"], oldBaseURL: P, newBaseURL: "http://two.example/" }]);
    });

    it("without the old value, the change is reported from the cache, or not at all", () => {
      const { context, $ } = open(page, { xmlBase: true });
      const changes = record(context);
      adapter.setAttribute($("d2"), XML_NAMESPACE, "base", "http://two.example/", "xml");
      context.attributeChanged($("d2"), XML_NAMESPACE, "base"); // never asked about before: nothing known
      expect(baseURI(context, $("a2"))).toBe("http://two.example/");
      adapter.setAttribute($("d2"), XML_NAMESPACE, "base", "http://three.example/", "xml");
      context.attributeChanged($("d2"), XML_NAMESPACE, "base");
      expect(baseURI(context, $("a2"))).toBe("http://three.example/");
      expect(changes).toEqual([{ reason: "xml-base", roots: ["d2"], oldBaseURL: "http://two.example/", newBaseURL: "http://three.example/" }]);
    });

    it.runIf(kit.parsesXHTML)("is read from an XHTML document, where the parser puts xml:base in the XML namespace", () => {
      const { context, $ } = open(
        '<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml" xml:base="http://feed.example/a/"><body><div id="d" xml:base="b/"><a id="a" href="c">c</a></div></body></html>',
        { xhtml: true, xmlBase: true },
      );
      expect(resolve(context, "c", $("a"))).toBe("http://feed.example/a/b/c");
    });
  });

  // ================================================================================================
  describe("legacy encodings: the base URL's query in the document's encoding (catalogue §0.8, §3a)", () => {
    it("windows-1252: <base href='?å'> → ?%E5, and an <a href='?ÿ'> → ?%FF", () => {
      const { context, $ } = open('<meta charset="windows-1252"><base id="b" href="?å"><a id="a" href="?ÿ">x</a>', { encoding: "windows-1252" });
      expect(context.encoding).toBe("windows-1252");
      expect(base(context)).toBe(P + "?%E5");
      expect(baseElementHref(context, $("b"))).toBe(P + "?%E5");
      expect(resolve(context, adapter.getAttribute($("a"), null, "href")!, $("a"))).toBe(P + "?%FF");
    });

    it("windows-1251: å is not encodable, so it becomes &#229; percent-encoded", () => {
      const { context } = open('<meta charset="windows-1251"><base href="?&#229;">', { encoding: "windows-1251" });
      expect(base(context)).toBe(P + "?%26%23229%3B");
    });

    it("UTF-16LE documents use UTF-8", () => {
      const { context } = open('<base href="?å">', { encoding: "utf-16le" });
      expect(context.encoding).toBe("UTF-16LE");
      expect(base(context)).toBe(P + "?%C3%A5");
    });

    it("only the query of special non-ws schemes: path, fragment and other schemes stay UTF-8", () => {
      const { context } = open('<meta charset="windows-1252"><base href="å/?å#å">', { encoding: "windows-1252" });
      expect(base(context)).toBe(Pdir + "%C3%A5/?%E5#%C3%A5");
      expect(resolve(context, "foo://h/?å")).toBe("foo://h/?%C3%A5");
      expect(resolve(context, "ws://h/?å")).toBe("ws://h/?%C3%A5");
      expect(resolve(context, "ftp://h/?å")).toBe("ftp://h/?%E5");
    });

    it("the encoding option overrides the tree's; an unknown label is an UnknownEncodingError naming it", () => {
      const { document, options } = kit.load('<base href="?å">', { url: P });
      const context = track(createDocumentContext(adapter, document, { ...options, encoding: "latin1" }));
      expect(base(context)).toBe(P + "?%E5");
      context.dispose();
      let error: unknown;
      try {
        createDocumentContext(adapter, document, { ...options, encoding: "utf-7" });
      } catch (e) {
        error = e;
      }
      expect(isUnknownEncodingError(error)).toBe(true);
      expect((error as Error).message).toContain('"utf-7"');
    });
  });

  // ================================================================================================
  describe("mutation records and observation", () => {
    it("notifyMutation takes MutationRecord-shaped objects", () => {
      const { document, context, $ } = open('<head id="h"><base id="b" href="/one/"></head>', { xmlBase: true });
      const changes = record(context);
      adapter.setAttribute($("b"), null, "href", "/two/");
      const b2 = element(document, "base", { href: "/zero/" });
      kit.insertBefore($("h"), b2, $("b"));
      context.notifyMutation([
        { type: "attributes", target: $("b"), attributeName: "href", attributeNamespace: null, oldValue: "/one/" },
        { type: "childList", target: $("h"), addedNodes: [b2], removedNodes: [] },
        { type: "characterData", target: $("h") },
      ]);
      expect(base(context)).toBe(O + "/zero/");
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/one/", newBaseURL: O + "/two/" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/two/", newBaseURL: O + "/zero/" },
      ]);
    });

    it.runIf(kit.observable)("observe: the tree's own mutations are applied before every query, and reported", async () => {
      const { document, context, $ } = open('<head id="h"></head><body><div id="d"><a id="a">x</a></div></body>', { observe: true, xmlBase: true });
      expect(context.observing).toBe(true);
      const changes = record(context);
      const el = kit.createElement(document, "base") as Element;
      el.setAttribute("href", "/observed/");
      ($("h") as Element).appendChild(el);
      expect(base(context)).toBe(O + "/observed/");
      ($("d") as Element).setAttributeNS(XML_NAMESPACE, "xml:base", "http://xml.example/");
      expect(baseURI(context, $("a"))).toBe("http://xml.example/");
      el.setAttribute("href", "/later/");
      await Promise.resolve(); // the observer's own delivery, with no query in between
      expect(changes).toEqual([
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: P, newBaseURL: O + "/observed/" },
        { reason: "xml-base", roots: ["d"], oldBaseURL: O + "/observed/", newBaseURL: "http://xml.example/" },
        { reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/observed/", newBaseURL: O + "/later/" },
      ]);
      expect(baseURI(context, $("a"))).toBe("http://xml.example/");
      // A removed subtree keeps its xml:base (and is no longer observed, so not cached).
      const a = $("a") as Element;
      ($("d") as Element).remove();
      expect(baseURI(context, a)).toBe("http://xml.example/");
      a.remove();
      expect(baseURI(context, a)).toBe(O + "/later/");
      expect(changes).toHaveLength(3);
    });

    it.runIf(!kit.observable)("observe: true is refused when the tree cannot be observed", () => {
      const { document, options } = kit.load("<p>x</p>", { url: P });
      let error: unknown;
      try {
        createDocumentContext(adapter, document, { ...options, observe: true });
      } catch (e) {
        error = e;
      }
      expect(isDocumentContextError(error)).toBe(true);
      // The failed attempt did not keep the document.
      track(createDocumentContext(adapter, document, options)).dispose();
    });
  });

  // ================================================================================================
  describe("contexts", () => {
    it("one per document: another is refused until the first is disposed", () => {
      const { document, context } = open("<p>x</p>");
      expect(documentContextOf(document)).toBe(context);
      expect(() => createDocumentContext(adapter, document, { url: P })).toThrow(/already has a DocumentContext/);
      context.dispose();
      expect(documentContextOf(document)).toBeUndefined();
      track(createDocumentContext(adapter, document, { url: P }));
    });

    it("refuses a URL that is not absolute, a node that is not a document, and a non-context", () => {
      const { document, options } = kit.load("<p id='p'>x</p>", { url: P });
      for (const make of [
        () => createDocumentContext(adapter, document, { ...options, url: "relative/path" }),
        () => createDocumentContext(adapter, kit.byId(document, "p"), options),
        () => createDocumentContext(adapter, document, { ...options, aboutBaseURL: "not a URL" }),
        () => documentBaseURL({} as DocumentContext),
      ]) {
        let error: unknown;
        try {
          make();
        } catch (e) {
          error = e;
        }
        expect(isDocumentContextError(error)).toBe(true);
      }
    });

    it("returns frozen, shared base URL records; parse results are the caller's", () => {
      const { context } = open('<base href="/b/">');
      expect(Object.isFrozen(documentBaseURL(context))).toBe(true);
      expect(documentBaseURL(context)).toBe(documentBaseURL(context));
      const parsed = encodingParseURL(context, "x")!;
      expect(Object.isFrozen(parsed)).toBe(false);
      expect(serializeURL(parsed)).toBe(O + "/b/x");
      expect(encodingParseURL(context, "http://[::1")).toBeNull();
    });
  });

  // ================================================================================================
  describe("the caches against a from-scratch oracle, after random mutations (fast-check)", () => {
    const html =
      '<head id="head"><base id="b0" href="/h/"></head><body id="body"><div id="e0"><div id="e1"><base id="b1" href="sub/"><p id="e2"></p></div></div>' +
      '<div id="e3"><span id="e4"></span><base id="b2" target="t"></div><div id="e5"></div></body>';
    const movable = ["e0", "e1", "e2", "e3", "e4", "e5", "b0", "b1", "b2"];
    const parents = [...movable, "head", "body"];
    const hrefs = ["/a/", "b/", "data:x,y", "", "http://h:x/", "https://other.example/o/"];
    const xmlBases = ["x/", "/y/", "https://z.example/", "", "http://bad:port/", "../up/"];
    type Op =
      | { readonly kind: "href"; readonly node: number; readonly value: number }
      | { readonly kind: "noHref"; readonly node: number }
      | { readonly kind: "xmlBase"; readonly node: number; readonly value: number }
      | { readonly kind: "noXmlBase"; readonly node: number }
      | { readonly kind: "move"; readonly node: number; readonly parent: number }
      | { readonly kind: "detach"; readonly node: number };
    const index = (n: number) => fc.nat({ max: n - 1 });
    const op: fc.Arbitrary<Op> = fc.oneof(
      fc.record({ kind: fc.constant("href" as const), node: index(3), value: index(hrefs.length) }),
      fc.record({ kind: fc.constant("noHref" as const), node: index(3) }),
      fc.record({ kind: fc.constant("xmlBase" as const), node: index(movable.length), value: index(xmlBases.length) }),
      fc.record({ kind: fc.constant("noXmlBase" as const), node: index(movable.length) }),
      fc.record({ kind: fc.constant("move" as const), node: index(movable.length), parent: index(parents.length) }),
      fc.record({ kind: fc.constant("detach" as const), node: index(movable.length) }),
    );

    it("every element's base URL equals a plain recomputation, with and without xml:base", () => {
      fc.assert(
        fc.property(fc.array(op, { maxLength: 20 }), fc.boolean(), (ops, xmlBase) => {
          const { document, context, $ } = open(html, { xmlBase });
          const byId = new Map([...parents, "html"].map((id) => [id, id === "html" ? kit.parent($("head")) : $(id)]));
          const node = (id: string) => byId.get(id);
          const isInclusiveAncestor = (a: unknown, b: unknown): boolean => {
            for (let n: unknown = b; n !== null; n = kit.parent(n)) if (n === a) return true;
            return false;
          };
          /** The oracle: the standard's steps, on the tree as it is, with no cache. */
          const documentBase = (): string => {
            const stack: unknown[] = [document];
            while (stack.length > 0) {
              const n = stack.pop();
              if (adapter.isElementNode(n) && adapter.getLocalName(n) === "base" && adapter.getNamespaceURI(n) === HTML_NAMESPACE) {
                const href = adapter.getAttribute(n, null, "href");
                if (href !== null) {
                  const url = parseURL(href, { base: P });
                  return url === null || url.scheme === "data" || url.scheme === "javascript" ? P : serializeURL(url);
                }
              }
              stack.push(...kit.children(n).reverse());
            }
            return P;
          };
          const oracle = (el: unknown, docBase: string): string => {
            const chain: unknown[] = [];
            for (let n: unknown = el; n !== null && adapter.isElementNode(n); n = kit.parent(n)) chain.unshift(n);
            let url = docBase;
            if (!xmlBase) return url;
            for (const n of chain) {
              const value = adapter.getAttribute(n, XML_NAMESPACE, "base");
              if (value === null) continue;
              const parsed = parseURL(value, { base: url });
              if (parsed !== null) url = serializeURL(parsed);
            }
            return url;
          };
          for (const step of ops) {
            const target = node(step.kind === "href" || step.kind === "noHref" ? ["b0", "b1", "b2"][step.node]! : movable[step.node]!);
            if (step.kind === "href") setAttribute(context, target, "href", hrefs[step.value]!);
            else if (step.kind === "noHref") removeAttribute(context, target, "href");
            else if (step.kind === "xmlBase") setXMLBase(context, target, xmlBases[step.value]!);
            else if (step.kind === "noXmlBase") removeAttribute(context, target, "base", XML_NAMESPACE);
            else if (step.kind === "detach") {
              if (kit.parent(target) !== null) remove(context, target);
            } else {
              const parent = node(parents[step.parent]!);
              if (!isInclusiveAncestor(target, parent)) insert(context, parent, target);
            }
            const docBase = documentBase();
            expect(base(context)).toBe(docBase);
            for (const id of [...parents, "html"]) expect([id, baseURI(context, node(id))]).toEqual([id, oracle(node(id), docBase)]);
          }
          context.dispose();
        }),
        { numRuns: 100 },
      );
    });
  });

  // ================================================================================================
  describe("hostile trees: nothing recurses", () => {
    const N = 100_000;

    it(`a host with ${N.toLocaleString("en")} children before 3,000 declarative templates: each host's children are read once`, () => {
      const html = `<base href="/b/"><div id="host">${"<i></i>".repeat(N)}${'<template shadowrootmode="open"><a href="x">x</a></template>'.repeat(2_999)}<template id="last" shadowrootmode="open"><a id="a" href="x">x</a></template></div>`;
      const { context, $ } = open(html);
      const children = kit.children($("host"));
      const [first, last] = [children[N], children[children.length - 1]].map((template) => kit.children(adapter.getTemplateContent(template))[0]);
      expect(baseURI(context, first)).toBe(O + "/b/");
      expect(baseURI(context, last)).toBe("about:blank");
    });

    // Not on the DOM tree: there the chain is walked for each node (its observer does not see
    // template contents, so nothing could tell a remembered chain is stale), and jsdom's own
    // insertion overflows the stack at this depth.
    it.skipIf(kit.name === "jsdom")(`declarative shadow roots nested ${N.toLocaleString("en")} deep, a link in each: each link's document is found without walking the chain of hosts again`, () => {
      const depth = N;
      const level = '<div><a href="x">x</a><template shadowrootmode="open">';
      const loaded = kit.load(`<base href="/b/"><body><div id="h0"><a href="x">x</a><template shadowrootmode="open">${level.repeat(depth - 1)}`, { url: P });
      // The work, counted: the parent steps the context takes.
      let parentSteps = 0;
      const counting: typeof adapter = { ...adapter, getParentNode: (node) => (parentSteps++, adapter.getParentNode(node)) };
      const context = track(createDocumentContext(counting, loaded.document, loaded.options));
      const links: unknown[] = [];
      let host: unknown = kit.byId(loaded.document, "h0");
      while (host !== undefined) {
        const [link, template] = kit.children(host);
        links.push(link);
        host = kit.children(adapter.getTemplateContent(template))[0];
      }
      expect(links.length).toBe(depth);
      parentSteps = 0;
      for (const link of links) expect(baseURI(context, link)).toBe(O + "/b/");
      // Linear: some 15 steps per link (walking the chain of hosts again for each link takes
      // about depth² steps in all).
      expect(parentSteps).toBeLessThan(100 * depth);
    });

    it(`a ${N.toLocaleString("en")}-deep tree: base URLs, a base at the bottom, xml:base on every level, invalidation`, () => {
      const { document, options } = kit.loadForHostileTree(P, "deep");
      let leaf: unknown = kit.byId(document, "body");
      const chain: unknown[] = [];
      for (let i = 0; i < N; i++) {
        const div = kit.createElement(document, "div");
        if (i % 1000 === 0) adapter.setAttribute(div, XML_NAMESPACE, "base", "d/", "xml");
        kit.append(leaf, div);
        chain.push(div);
        leaf = div;
      }
      adapter.setAttribute(leaf, null, "id", "leaf");
      kit.append(leaf, kit.createElement(document, "base"));
      const bottomBase = kit.children(leaf)[0];
      adapter.setAttribute(bottomBase, null, "href", "/bottom/");
      // Without xml:base.
      const plain = track(createDocumentContext(adapter, document, options));
      expect(base(plain)).toBe(O + "/bottom/");
      expect(baseURI(plain, leaf)).toBe(O + "/bottom/");
      const changes = record(plain);
      removeAttribute(plain, bottomBase, "href");
      expect(base(plain)).toBe(P);
      expect(changes).toHaveLength(1);
      plain.dispose();
      // With xml:base: 100 nested relative values.
      const context = track(createDocumentContext(adapter, document, { ...options, xmlBase: true }));
      expect(baseURI(context, leaf)).toBe(Pdir + "d/".repeat(N / 1000));
      expect(baseURI(context, chain[N / 2])).toBe(Pdir + "d/".repeat(N / 2000 + 1));
      const xmlChanges = record(context);
      setXMLBase(context, chain[0], "https://top.example/");
      expect(baseURI(context, leaf)).toBe("https://top.example/" + "d/".repeat(N / 1000 - 1));
      removeAttribute(context, chain[0], "base", XML_NAMESPACE);
      expect(baseURI(context, leaf)).toBe(Pdir + "d/".repeat(N / 1000 - 1));
      expect(xmlChanges.map((c) => c.reason)).toEqual(["xml-base", "xml-base"]);
      // Moving the whole chain out and back.
      const body = kit.byId(document, "body");
      remove(context, chain[0]);
      insert(context, body, chain[0]);
      expect(baseURI(context, leaf)).toBe(Pdir + "d/".repeat(N / 1000 - 1));
    });

    it(`${N.toLocaleString("en")} siblings: a base after all of them, then one before`, () => {
      const { document, options } = kit.loadForHostileTree(P, "wide");
      const body = kit.byId(document, "body");
      const siblings: unknown[] = [];
      for (let i = 0; i < N; i++) {
        const span = kit.createElement(document, "span");
        kit.append(body, span);
        siblings.push(span);
      }
      const last = element(document, "base", { href: "/last/" });
      kit.append(body, last);
      const context = track(createDocumentContext(adapter, document, { ...options, xmlBase: true }));
      expect(base(context)).toBe(O + "/last/");
      let total = 0;
      for (const span of siblings) total += baseURI(context, span).length;
      expect(total).toBe(N * (O + "/last/").length);
      const changes = record(context);
      const first = element(document, "base", { href: "/first/" });
      kit.insertBefore(body, first, siblings[0]);
      context.childrenChanged(body, { added: [first] });
      expect(baseURI(context, siblings[N - 1])).toBe(O + "/first/");
      // (Removing from the end: the trees' own removal searches their child arrays.)
      const removed = siblings.slice(N - 1000).reverse();
      for (const span of removed) kit.remove(span);
      context.childrenChanged(body, { removed });
      expect(base(context)).toBe(O + "/first/");
      expect(changes).toEqual([{ reason: "document-base-url", roots: ["#document"], oldBaseURL: O + "/last/", newBaseURL: O + "/first/" }]);
    });
  });
});
