// The read cache of docbase/jsdom (src/jsdom/install.ts) and its fast paths:
// every value read through a patched getter must be the value a fresh
// computation gives, after any mutation, by any API. The cache keeps values
// per element with the content attribute they came from; whether attribute
// changes are observed adapts to the document's traffic, so every scenario
// runs in both regimes: "observed" (reads of unchanged elements prevail)
// and "unobserved" (attribute changes prevail).
import { JSDOM } from "jsdom";
import { afterEach, describe, expect, it } from "vitest";
import { install } from "../../src/jsdom/index.ts";
import { isURLUtilsError } from "../../src/url-utils/index.ts";

const P = "https://example.test/dir/page.html";
const XML_NAMESPACE = "http://www.w3.org/XML/1998/namespace";

type AnyElement = HTMLElement & Record<string, unknown>;
type Window = JSDOM["window"];

const opened: JSDOM[] = [];
afterEach(() => {
  for (const dom of opened.splice(0)) dom.window.close();
});

function open(html: string, options: { xmlBase?: boolean } = {}): { window: Window; document: Document } {
  const dom = new JSDOM(html, {
    url: P,
    beforeParse(window) {
      install(window, options.xmlBase === undefined ? {} : { xmlBase: options.xmlBase });
    },
  });
  opened.push(dom);
  return { window: dom.window, document: dom.window.document };
}

function $(document: Document | DocumentFragment | ShadowRoot, selector: string): AnyElement {
  const element = document.querySelector(selector);
  if (element === null) throw new Error(`no ${selector}`);
  return element as unknown as AnyElement;
}

/**
 * Puts the installation in one regime, through its public behaviour only:
 * many reads of an unchanged link ("observed"), or many changes of a link's
 * href each followed by a read ("unobserved"). The scratch link is removed
 * afterwards (which starts a new generation: the scenario's elements are
 * then looked up again, as after any insertion).
 */
function settle(document: Document, regime: "observed" | "unobserved"): void {
  const scratch = document.createElement("a") as unknown as AnyElement;
  scratch.setAttribute("href", "scratch");
  document.body.append(scratch);
  for (let i = 0; i < 300; i++) {
    if (regime === "unobserved") scratch.setAttribute("href", `scratch-${i}`);
    void scratch["href"];
  }
  scratch.remove();
}

/** Reads `element[property]` twice (the second from the cache when it may be cached), checking both. */
function expectRead(element: AnyElement, property: string, expected: string): void {
  expect(element[property], property).toBe(expected);
  expect(element[property], `${property} (again)`).toBe(expected);
}

const regimes = ["observed", "unobserved"] as const;

describe.each(regimes)("attribute changes by any API (%s)", (regime) => {
  it("a.href, area.href and their decomposition attributes follow the href attribute", () => {
    const { window, document } = open(`<base href="/b/"><a id=a href="x?q#h">a</a><map><area id=area href="y"></map>`);
    const a = $(document, "#a");
    const area = $(document, "#area");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/b/x?q#h");
    expectRead(a, "pathname", "/b/x");
    expectRead(area, "href", "https://example.test/b/y");
    const changes: [string, (element: AnyElement) => void, string][] = [
      ["setAttribute", (e) => e.setAttribute("href", "s1"), "https://example.test/b/s1"],
      ["setAttributeNS", (e) => e.setAttributeNS(null, "href", "s2"), "https://example.test/b/s2"],
      ["Attr.value", (e) => void (e.getAttributeNode("href")!.value = "s3"), "https://example.test/b/s3"],
      ["Attr.nodeValue", (e) => void (e.getAttributeNode("href")!.nodeValue = "s4"), "https://example.test/b/s4"],
      ["Attr.textContent", (e) => void (e.getAttributeNode("href")!.textContent = "s5"), "https://example.test/b/s5"],
      [
        "attributes.setNamedItem",
        (e) => {
          const attr = document.createAttribute("href");
          attr.value = "s6";
          e.attributes.setNamedItem(attr);
        },
        "https://example.test/b/s6",
      ],
      ["removeAttribute", (e) => e.removeAttribute("href"), ""],
      ["toggleAttribute", (e) => e.toggleAttribute("href"), "https://example.test/b/"],
      ["href setter", (e) => void (e["href"] = "s7"), "https://example.test/b/s7"],
      ["pathname setter", (e) => void (e["pathname"] = "/p"), "https://example.test/p"],
      ["attributes.removeNamedItem", (e) => void e.attributes.removeNamedItem("href"), ""],
      ["setAttribute again", (e) => e.setAttribute("href", "//other.test/z"), "https://other.test/z"],
    ];
    for (const [name, change, expected] of changes) {
      for (const element of [a, area]) {
        change(element);
        expect(element["href"], `${element.localName}: ${name}`).toBe(expected);
        expect(element["href"], `${element.localName}: ${name} (again)`).toBe(expected);
        expect(element.toString(), `${element.localName}: ${name} (toString)`).toBe(expected);
      }
    }
    // A change of another element's attribute leaves these values as they are.
    $(document, "#a").setAttribute("title", "t");
    document.body.setAttribute("data-x", "y");
    expectRead(area, "href", "https://other.test/z");
    expect(window.document.querySelector("a")!.getAttribute("href")).toBe("//other.test/z");
  });

  it("every decomposition attribute after a first read of href, and after the base URL changes", () => {
    const { document } = open(`<base href="/b/"><a id=a href="../x/y?q=1#h">a</a><a id=c href="HTTP://User:Pw@Example.TEST:80/p">c</a>`);
    const a = $(document, "#a");
    const c = $(document, "#c");
    settle(document, regime);
    const names = ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"];
    const all = (element: AnyElement): string[] => names.map((name) => element[name] as string);
    // href first (its value is made without a URL record), then the others (which parse it).
    expectRead(a, "href", "https://example.test/x/y?q=1#h");
    expect(all(a)).toEqual(["https://example.test/x/y?q=1#h", "https://example.test", "https:", "", "", "example.test", "example.test", "", "/x/y", "?q=1", "#h"]);
    expectRead(c, "href", "http://User:Pw@example.test/p");
    expect(all(c)).toEqual(["http://User:Pw@example.test/p", "http://example.test", "http:", "User", "Pw", "example.test", "example.test", "", "/p", "", ""]);
    // A new base URL: href read first again, then pathname; and pathname first on a fresh read.
    document.querySelector("base")!.setAttribute("href", "https://other.test/deep/er/");
    expectRead(a, "href", "https://other.test/deep/x/y?q=1#h");
    expectRead(a, "pathname", "/deep/x/y");
    document.querySelector("base")!.setAttribute("href", "/z/z/");
    expectRead(a, "pathname", "/z/x/y");
    expectRead(a, "href", "https://example.test/z/x/y?q=1#h");
    // An href that does not parse (href is the attribute, the others empty), and a blob: URL
    // without an opaque path (resolved again when the base changes, unlike one with).
    a.setAttribute("href", "http://[::1");
    expectRead(a, "href", "http://[::1");
    expect(all(a).slice(1)).toEqual(["", ":", "", "", "", "", "", "", "", ""]);
    c.setAttribute("href", "blob:/p?q");
    expectRead(c, "href", "blob:/p?q");
    expect(all(c).slice(1)).toEqual(["null", "blob:", "", "", "", "", "", "/p", "?q", ""]);
  });

  it("reflected URL attributes follow their content attribute, each its own (input src and formAction)", () => {
    const { document } = open(`<base href="/b/"><img src="i.png"><input type=image src="s.png" formaction="go"><form action="f"></form>`);
    const img = $(document, "img");
    const input = $(document, "input");
    const form = $(document, "form");
    settle(document, regime);
    expectRead(img, "src", "https://example.test/b/i.png");
    expectRead(input, "src", "https://example.test/b/s.png");
    expectRead(input, "formAction", "https://example.test/b/go");
    expectRead(form, "action", "https://example.test/b/f");
    img.getAttributeNode("src")!.value = "j.png";
    input.setAttribute("formaction", "");
    form.removeAttribute("action");
    expectRead(img, "src", "https://example.test/b/j.png");
    expectRead(input, "src", "https://example.test/b/s.png");
    expectRead(input, "formAction", P);
    expectRead(form, "action", P);
    input["src"] = "t.png";
    expectRead(input, "src", "https://example.test/b/t.png");
    expectRead(input, "formAction", P);
  });
});

describe.each(regimes)("base element changes (%s)", (regime) => {
  it("the first base element's href, removal, and a base inserted before it", () => {
    const { document } = open(`<head><base id=b1 href="/one/"></head><body><a href="x">x</a><img src="i">`);
    const a = $(document, "a");
    const img = $(document, "img");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/one/x");
    $(document, "#b1").setAttribute("href", "/two/");
    expectRead(a, "href", "https://example.test/two/x");
    expectRead(img, "src", "https://example.test/two/i");
    $(document, "#b1").getAttributeNode("href")!.value = "/three/";
    expectRead(a, "href", "https://example.test/three/x");
    const b0 = document.createElement("base");
    b0.setAttribute("href", "/zero/");
    document.head.prepend(b0);
    expectRead(a, "href", "https://example.test/zero/x");
    b0.remove();
    expectRead(a, "href", "https://example.test/three/x");
    $(document, "#b1").removeAttribute("href");
    expectRead(a, "href", "https://example.test/dir/x");
  });

  it("a base element after the first one counts once the first goes, and its href changes are seen", () => {
    const { document } = open(`<head><base id=b1 href="/one/"></head><body><base id=b2><a href="x">x</a>`);
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/one/x");
    // b2 has no href: it changes nothing while b1 is first.
    $(document, "#b2").setAttribute("href", "/two/");
    expectRead(a, "href", "https://example.test/one/x");
    $(document, "#b1").remove();
    expectRead(a, "href", "https://example.test/two/x");
    $(document, "#b2").setAttribute("href", "/two-b/");
    expectRead(a, "href", "https://example.test/two-b/x");
    $(document, "#b2").getAttributeNode("href")!.value = "/two-c/";
    expectRead(a, "href", "https://example.test/two-c/x");
  });

  it("the first base element moved after another base element, which then gets an href", () => {
    const { document } = open(`<head><base id=b1 href="/one/"></head><body><base id=b2><a href="x">x</a>`);
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/one/x");
    document.body.append($(document, "#b1"));
    expectRead(a, "href", "https://example.test/one/x");
    $(document, "#b2").setAttribute("href", "/two/");
    expectRead(a, "href", "https://example.test/two/x");
  });

  it("a document without base elements, then one inserted and changed", () => {
    const { document } = open(`<a href="x">x</a>`);
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/dir/x");
    const base = document.createElement("base");
    document.body.append(base);
    expectRead(a, "href", "https://example.test/dir/x");
    base.setAttribute("href", "/late/");
    expectRead(a, "href", "https://example.test/late/x");
  });

  it("no head fast path: the document element is not html, or the head is not its first element", () => {
    const { document } = open(`<head><base href="/head/"></head><a href="x">x</a>`);
    const a = $(document, "a");
    settle(document, regime);
    const first = document.createElement("base");
    first.setAttribute("href", "/first/");
    document.documentElement.prepend(document.createElement("div"));
    document.documentElement.firstElementChild!.append(first);
    expectRead(a, "href", "https://example.test/first/x");
    first.setAttribute("href", "/first-b/");
    expectRead(a, "href", "https://example.test/first-b/x");
  });
});

describe.each(regimes)("elements that move (%s)", (regime) => {
  it("into template contents, another document (adopted), a shadow tree, and back", () => {
    const { window, document } = open(`<base href="/b/"><a href="x">x</a><template></template>`);
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/b/x");
    // Template contents belong to an inert document: URL about:blank, no base element.
    ($(document, "template") as unknown as HTMLTemplateElement).content.append(a);
    expectRead(a, "href", "x");
    a.setAttribute("href", "https://abs.test/t");
    expectRead(a, "href", "https://abs.test/t");
    a.setAttribute("href", "x");
    // A document made by DOMParser, with its own base element (the window's prototypes).
    const parsed = new window.DOMParser().parseFromString(`<base href="https://parsed.test/p/"><p>`, "text/html");
    parsed.body.append(a);
    expectRead(a, "href", "https://parsed.test/p/x");
    parsed.querySelector("base")!.setAttribute("href", "https://parsed.test/q/");
    expectRead(a, "href", "https://parsed.test/q/x");
    // One made by createHTMLDocument: about:blank, its base URL too.
    const synthetic = document.implementation.createHTMLDocument("s");
    synthetic.body.append(synthetic.adoptNode(a));
    expectRead(a, "href", "x");
    a.setAttribute("href", "y");
    expectRead(a, "href", "y");
    // Back in the window's document.
    document.body.append(a);
    expectRead(a, "href", "https://example.test/b/y");
    // A shadow tree: connected, but not in the document's tree.
    const host = document.createElement("div");
    document.body.append(host);
    const shadow = host.attachShadow({ mode: "open" });
    shadow.append(a);
    expectRead(a, "href", "https://example.test/b/y");
    a.setAttribute("href", "z");
    expectRead(a, "href", "https://example.test/b/z");
    document.body.append(a);
    expectRead(a, "href", "https://example.test/b/z");
  });

  it("removed, changed while detached, inserted again", () => {
    const { document } = open(`<base href="/b/"><div><a href="x">x</a></div>`);
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/b/x");
    const div = $(document, "div");
    div.remove();
    expectRead(a, "href", "https://example.test/b/x");
    a.setAttribute("href", "detached");
    expectRead(a, "href", "https://example.test/b/detached");
    document.body.append(div);
    expectRead(a, "href", "https://example.test/b/detached");
    a.setAttribute("href", "attached");
    expectRead(a, "href", "https://example.test/b/attached");
  });

  it("elements of documents that share the window's prototypes, never in the window's document", () => {
    const { window, document } = open(``);
    settle(document, regime);
    const parsed = new window.DOMParser().parseFromString(`<base href="https://parsed.test/"><a href="x">x</a><img src="i">`, "text/html");
    const a = $(parsed, "a");
    const img = $(parsed, "img");
    expectRead(a, "href", "https://parsed.test/x");
    expectRead(img, "src", "https://parsed.test/i");
    a.setAttribute("href", "y");
    img.setAttribute("src", "j");
    expectRead(a, "href", "https://parsed.test/y");
    expectRead(img, "src", "https://parsed.test/j");
    // Without a base element: the DOMParser document's URL, its creator's (jsdom, as the DOM Parsing spec).
    parsed.querySelector("base")!.remove();
    expectRead(a, "href", new window.URL("y", parsed.URL).href);
  });
});

describe("what a getter is called on", () => {
  it("an element that is not an a or area, given HTMLAnchorElement.prototype, throws as before", () => {
    const { window, document } = open(`<div href="x"></div>`);
    const div = $(document, "div");
    Object.setPrototypeOf(div, window.HTMLAnchorElement.prototype);
    let error: unknown = null;
    try {
      void div["href"];
    } catch (caught) {
      error = caught;
    }
    expect(isURLUtilsError(error)).toBe(true);
    // The same element again (it now has a cache entry): still an error.
    expect(() => div["pathname"]).toThrow(TypeError);
  });
});

describe("the blob: url that reinitialize url keeps", () => {
  it.each(regimes)("a fragment against a blob: base stays a blob: URL when the base changes (%s)", (regime) => {
    const { document } = open(`<base href="blob:https://example.test/uuid"><a href="#frag">x</a><a id=b href="#frag">y</a>`);
    const [a, b] = [...document.querySelectorAll("a")] as unknown as AnyElement[];
    settle(document, regime);
    expectRead(a!, "href", "blob:https://example.test/uuid#frag");
    // b: its url is set by another getter first.
    expectRead(b!, "hash", "#frag");
    $(document, "base").setAttribute("href", "https://example.test/other/");
    // https://html.spec.whatwg.org/multipage/links.html#reinitialise-url step 1: kept.
    expectRead(a!, "href", "blob:https://example.test/uuid#frag");
    expectRead(b!, "href", "blob:https://example.test/uuid#frag");
    a!.setAttribute("href", "#new");
    expectRead(a!, "href", "https://example.test/other/#new");
  });
});

describe("frames", () => {
  it("are installed when parsing ends, before anything is read", () => {
    const dom = new JSDOM(`<base href="/b/"><iframe srcdoc="<a href=y>y</a>"></iframe><iframe></iframe>`, {
      url: P,
      beforeParse: (window) => void install(window),
    });
    opened.push(dom);
    // Through window.frames, not the (patched) iframe getters.
    const frames = dom.window.frames as unknown as Window[];
    expect(frames[0]!.document.URL).toBe("about:srcdoc");
    expect(($(frames[0]!.document, "a") as AnyElement)["href"]).toBe("https://example.test/b/y");
    expect(frames[1]!.document.baseURI).toBe("https://example.test/b/");
  });

  it.each(regimes)("a srcdoc changed through the Attr API gets a new document (%s)", (regime) => {
    const { document } = open(`<base href="/b/"><iframe srcdoc="<a href=y>y</a>"></iframe>`);
    settle(document, regime);
    const iframe = $(document, "iframe") as unknown as HTMLIFrameElement;
    expect(($(iframe.contentDocument!, "a") as AnyElement)["href"]).toBe("https://example.test/b/y");
    iframe.getAttributeNode("srcdoc")!.value = "<a href=z>z</a>";
    expect(($(iframe.contentDocument!, "a") as AnyElement)["href"]).toBe("https://example.test/b/z");
  });
});

describe("xml:base", () => {
  it.each(regimes)("an ancestor's xml:base set, changed and removed after a read (%s)", (regime) => {
    const { document } = open(`<div id=d><p><a href="x">x</a></p></div>`, { xmlBase: true });
    const a = $(document, "a");
    settle(document, regime);
    expectRead(a, "href", "https://example.test/dir/x");
    $(document, "#d").setAttributeNS(XML_NAMESPACE, "xml:base", "https://xml.test/one/");
    expectRead(a, "href", "https://xml.test/one/x");
    $(document, "#d").setAttributeNS(XML_NAMESPACE, "xml:base", "https://xml.test/two/");
    expectRead(a, "href", "https://xml.test/two/x");
    $(document, "p").setAttributeNS(XML_NAMESPACE, "xml:base", "sub/");
    expectRead(a, "href", "https://xml.test/two/sub/x");
    $(document, "#d").removeAttributeNS(XML_NAMESPACE, "base");
    expectRead(a, "href", "https://example.test/dir/sub/x");
  });
});

describe("many reads and changes, interleaved", () => {
  it("agree with a fresh computation at every step", () => {
    const { window, document } = open(`<head><base href="/b/"></head><body>` + "<a>x</a>".repeat(40) + "<img>".repeat(10));
    const links = [...document.querySelectorAll("a")] as unknown as AnyElement[];
    const images = [...document.querySelectorAll("img")] as unknown as AnyElement[];
    let seed = 7;
    const random = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let base = "/b/";
    for (let step = 0; step < 3000; step++) {
      const action = random(20);
      if (action < 3) {
        links[random(links.length)]!.setAttribute("href", `p${random(5)}?${step}`);
      } else if (action === 3) {
        images[random(images.length)]!.setAttribute("src", `i${random(5)}`);
      } else if (action === 4 && step % 50 === 0) {
        base = `/b${random(3)}/`;
        $(document, "base").setAttribute("href", base);
      } else if (action === 5 && step % 10 === 0) {
        const link = links[random(links.length)]!;
        link.remove();
        document.body.insertBefore(link, document.body.firstChild);
      } else {
        // Reads, mostly: in runs, as a crawler reads.
        const run = random(3) === 0 ? links.length : 1;
        for (let i = 0; i < run; i++) {
          const link = links[random(links.length)]!;
          const attribute = link.getAttribute("href");
          const expected = attribute === null ? "" : new window.URL(attribute, new window.URL(base, P)).href;
          expect(link["href"], `step ${step}`).toBe(expected);
          const image = images[random(images.length)]!;
          const src = image.getAttribute("src");
          expect(image["src"], `step ${step}`).toBe(src === null ? "" : new window.URL(src, new window.URL(base, P)).href);
        }
      }
    }
  });
});
