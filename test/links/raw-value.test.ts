// A link's `raw` is the attribute text as the element holds it; `url ?? raw` is what a browser's URL getter
// returns (the serialized URL, or the content attribute when it does not parse). Checked against plain jsdom's
// getters, which follow the HTML Standard here, for values with whitespace around them, values that do not
// parse, and both together.
import { JSDOM } from "jsdom";
import { describe, expect, it } from "vitest";
import { extractLinks } from "../../src/links/index.ts";

const values = [" lead-trail ", "\t\nx y\f", "https://a b/", " http://[::1/ ", "", "  ", "ok", " https://example.com/p?q=é ", "%zz", "\u00a0nbsp\u00a0"];
const documents = ["about:blank", "https://example.com/dir/page.html"];
const sites: { tag: string; attribute: string; property: string }[] = [
  { tag: "a", attribute: "href", property: "href" },
  { tag: "img", attribute: "src", property: "src" },
  { tag: "q", attribute: "cite", property: "cite" },
  { tag: "iframe", attribute: "src", property: "src" },
];

function attributeText(value: string): string {
  return value.replaceAll("&", "&amp;").replaceAll('"', "&quot;").replaceAll("\t", "&#9;").replaceAll("\n", "&#10;").replaceAll("\f", "&#12;");
}

describe("Link.raw: the attribute text; url ?? raw is the browser's getter", () => {
  for (const url of documents) {
    for (const { tag, attribute, property } of sites) {
      it(`<${tag} ${attribute}> in a document at ${url}`, () => {
        const html = values.map((value, i) => `<${tag} id="e${i}" ${attribute}="${attributeText(value)}"></${tag}>`).join("");
        const links = extractLinks(`<!doctype html><body>${html}`, { url }).filter((link) => link.element === tag);
        expect(links).toHaveLength(values.length);
        const { window } = new JSDOM(`<!doctype html><body>${html}`, { url });
        values.forEach((value, i) => {
          const link = links[i]!;
          const element = window.document.getElementById(`e${i}`) as unknown as Record<string, string>;
          expect(link.raw, JSON.stringify(value)).toBe(value);
          expect(link.value, JSON.stringify(value)).toBe(value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, ""));
          expect(link.url ?? link.raw, `${tag}.${property} of ${JSON.stringify(value)}`).toBe(element[property]);
        });
        window.close();
      });
    }
  }

  it("is the item itself in lists, srcset and CSS, where there is no whitespace around a URL", () => {
    const links = extractLinks(`<a ping=" a  b "></a><img srcset=" x.png 1x , y.png 2x"><div style="background: url(  z.png  )">`, { url: "https://example.com/" });
    expect(links.map((link) => [link.value, link.raw])).toEqual([
      ["a", "a"],
      ["b", "b"],
      ["x.png", "x.png"],
      ["y.png", "y.png"],
      ["z.png", "z.png"],
    ]);
  });
});
