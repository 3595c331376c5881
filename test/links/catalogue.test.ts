import { describe, expect, it } from "vitest";
import { catalogue, extractLinks, lookupAttribute } from "../../src/links/index.ts";

const url = "https://example.com/dir/page.html";

/** Markup that puts `element` (with `attrs`) where the parser keeps it. */
function markup(namespace: "html" | "svg", element: string, attrs: string): string {
  if (namespace === "svg") return `<!doctype html><body><svg><${element} ${attrs}></${element}></svg>`;
  switch (element) {
    case "html":
      return `<!doctype html><html ${attrs}><body>`;
    case "head":
      return `<!doctype html><html><head ${attrs}></head><body>`;
    case "body":
      return `<!doctype html><html><head></head><body ${attrs}>`;
    case "frame":
      return `<!doctype html><html><head></head><frameset><frame ${attrs}></frameset>`;
    case "table":
      return `<!doctype html><body><table ${attrs}><tr><td>x</td></tr></table>`;
    case "thead":
    case "tbody":
    case "tfoot":
      return `<!doctype html><body><table><${element} ${attrs}><tr><td>x</td></tr></${element}></table>`;
    case "tr":
      return `<!doctype html><body><table><tr ${attrs}><td>x</td></tr></table>`;
    case "td":
    case "th":
      return `<!doctype html><body><table><tr><${element} ${attrs}>x</${element}></tr></table>`;
    case "meta":
      return `<!doctype html><head><meta http-equiv="refresh" ${attrs}></head>`;
    default:
      return `<!doctype html><body><${element} ${attrs}></${element}>`;
  }
}

/** A value of the attribute's kind, and the URL text the first link should have. */
function sample(kind: string): { value: string; text: string } {
  switch (kind) {
    case "srcset":
      return { value: "a.png 1x, b.png 2x", text: "a.png" };
    case "refresh":
      return { value: "0; url=a.png", text: "a.png" };
    case "css":
      return { value: "background: url(a.png)", text: "a.png" };
    case "absolute-list":
      return { value: "https://example.com/a.png", text: "https://example.com/a.png" };
    default:
      return { value: "a.png", text: "a.png" };
  }
}

describe("the catalogue", () => {
  const rows = catalogue.filter((row) => row.kind !== "srcdoc");
  for (const row of rows) {
    const elements = row.elements === "*" ? (row.namespace === "svg" ? ["a", "image", "use", "feImage"] : ["div", "span"]) : row.elements;
    for (const element of elements) {
      it(`${row.namespace} <${element} ${row.attribute}> is a ${row.kind} link${row.obsolete ? " (obsolete)" : ""}`, () => {
        const { value, text } = sample(row.kind);
        const html = markup(row.namespace, element, `${row.attribute}="${value}"`);
        const links = extractLinks(html, { url }).filter((l) => l.attribute === row.attribute);
        expect(links.length).toBeGreaterThan(0);
        const link = links[0]!;
        expect(link.element).toBe(element);
        expect(link.namespace).toBe(row.namespace);
        expect(link.value).toBe(text);
        expect(link.url).toBe(new URL(text, url).href);
        expect(link.obsolete).toBe(row.obsolete);
        expect(html.slice(link.start, link.end)).toBe(text);
        const kind = row.kind === "css" ? "css-url" : row.kind;
        expect(link.kind).toBe(kind);
        if (row.kind === "srcset" || row.kind === "list") {
          // Every URL of a list is its own link.
        }
        expect(lookupAttribute(row.namespace, element, row.attribute)).toBe(row);
      });
    }
  }

  it("has a row for every attribute the issue lists", () => {
    const names = new Set(catalogue.map((r) => r.attribute));
    for (const name of ["href", "src", "poster", "cite", "action", "formaction", "data", "itemid", "manifest", "ping", "srcset", "imagesrcset", "itemtype", "content", "xlink:href", "longdesc", "background", "codebase", "lowsrc", "profile", "style", "srcdoc"]) {
      expect(names.has(name), name).toBe(true);
    }
  });

  it("gives no link for URL attribute names on elements that do not take them", () => {
    expect(extractLinks('<div href="a"></div><span src="b"></span><p poster="c"></p>', { url })).toEqual([]);
    // xlink:href is only a link in SVG; in HTML it is an ordinary attribute.
    expect(extractLinks('<a xlink:href="a">x</a>', { url })).toEqual([]);
    // MathML is not catalogued.
    expect(extractLinks('<math><mi href="a">x</mi></math>', { url })).toEqual([]);
  });

  it("reads meta content only for http-equiv=refresh (ASCII case-insensitive)", () => {
    expect(extractLinks('<meta name="x" content="0; url=a">', { url })).toEqual([]);
    expect(extractLinks('<meta http-equiv="REFRESH" content="0; url=a">', { url }).map((l) => l.value)).toEqual(["a"]);
  });

  it("lists ping, profile and archive one URL at a time", () => {
    const links = extractLinks('<a href=x ping=" p1\tp2\n p3 ">t</a><object archive="a.jar b.jar"></object>', { url });
    expect(links.filter((l) => l.attribute === "ping").map((l) => [l.value, l.kind])).toEqual([
      ["p1", "list"],
      ["p2", "list"],
      ["p3", "list"],
    ]);
    expect(links.filter((l) => l.attribute === "archive").map((l) => l.value)).toEqual(["a.jar", "b.jar"]);
  });

  it("does not resolve itemtype (absolute URLs only)", () => {
    const links = extractLinks('<div itemscope itemtype="https://schema.org/Person relative"></div>', { url });
    expect(links.map((l) => [l.value, l.url, l.base])).toEqual([
      ["https://schema.org/Person", "https://schema.org/Person", null],
      ["relative", null, null],
    ]);
  });
});
