// The one catalogue of URL-bearing attributes (src/url-utils/url-attribute-catalogue.ts),
// checked against its two outside sources, both ways:
//
// - web-platform-tests' reflection data (test/fixtures/wpt/html/dom/elements-*.js):
//   every IDL attribute the data gives the type "url" is a reflected URL attribute of
//   the catalogue and vice versa, and an attribute the data reflects as another type is
//   one the catalogue does not reflect as a URL;
// - the HTML Standard's attribute index (test/fixtures/html-standard/url-valued-attributes.json):
//   every URL-valued row is a conforming row of the catalogue of the matching kind and
//   vice versa.
//
// Each difference is listed with its cause, and the lists are enforced both ways: a
// listed difference that goes away fails as surely as a new one.
//
// And the tables derived from it (links' lookups, url-utils' reflected attributes) say
// what it says.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { catalogue as linksCatalogue, lookupAttribute } from "../../src/links/index.ts";
import { type AttributeKind, catalogue, type CatalogueEntry, reflectedURLAttributes } from "../../src/url-utils/index.ts";
import { loadReflectionData, parseReflectionData, repoRoot, type ReflectionDataEntry } from "../wpt-data.ts";

/** The catalogue's rows for HTML attribute `attribute` of element `element` (a global row counts for every element). */
function rowsFor(element: string, attribute: string): CatalogueEntry[] {
  return catalogue.filter(
    (row) => row.namespace === "html" && row.attribute === attribute && (row.elements === "*" || row.elements.includes(element)),
  );
}

describe("the catalogue itself", () => {
  it("has at most one row per element and attribute, and a row per element for each reflection", () => {
    const seen = new Map<string, CatalogueEntry>();
    for (const row of catalogue) {
      for (const element of row.elements === "*" ? ["*"] : row.elements) {
        const key = `${row.namespace} ${element} ${row.attribute}`;
        expect(seen.has(key), key).toBe(false);
        seen.set(key, row);
      }
      if (row.reflection !== null) {
        expect(row.namespace, row.attribute).toBe("html");
        expect(row.elements, row.attribute).not.toBe("*");
        expect(row.reflection.name.toLowerCase(), row.attribute).toBe(row.attribute);
        expect(row.kind, row.attribute).toBe("single");
        expect(row.reflection.spec).toMatch(/^https:\/\/html\.spec\.whatwg\.org\/multipage\/[a-z-]+\.html#dom-/);
      }
      expect(row.spec).toMatch(/^https:\/\//);
    }
  });

  it("is the very table links reads, and every lookup of links answers with its row", () => {
    expect(linksCatalogue).toBe(catalogue);
    for (const row of catalogue) {
      const elements = row.elements === "*" ? ["div", "use"] : row.elements;
      for (const element of elements) expect(lookupAttribute(row.namespace, element, row.attribute), `${element} ${row.attribute}`).toBe(row);
    }
  });

  it("is the very table url-utils' reflected URL attributes come from: one entry per element of each reflected row", () => {
    const fromCatalogue = catalogue.flatMap((row) =>
      row.reflection === null || row.elements === "*"
        ? []
        : row.elements.map((element) => ({
            element,
            name: row.reflection!.name,
            contentAttribute: row.attribute,
            kind: row.reflection!.getter,
            obsolete: row.obsolete,
            spec: row.reflection!.spec,
          })),
    );
    expect([...reflectedURLAttributes].sort(byKey)).toEqual(fromCatalogue.sort(byKey));
    expect(reflectedURLAttributes.map((e) => e.element)).toEqual(reflectedURLAttributes.map((e) => e.element).sort());
    expect(reflectedURLAttributes.filter((e) => e.element === "img").map((e) => e.name)).toEqual(["src", "longDesc", "lowsrc"]);
  });

  it("is frozen: nobody can make the layers disagree at run time", () => {
    expect(Object.isFrozen(catalogue)).toBe(true);
    for (const row of catalogue) {
      expect(Object.isFrozen(row)).toBe(true);
      if (row.elements !== "*") expect(Object.isFrozen(row.elements)).toBe(true);
      if (row.reflection !== null) expect(Object.isFrozen(row.reflection)).toBe(true);
    }
    expect(Object.isFrozen(reflectedURLAttributes)).toBe(true);
  });
});

function byKey(x: { element: string; name: string }, y: { element: string; name: string }): number {
  const a = `${x.element}.${x.name}`;
  const b = `${y.element}.${y.name}`;
  return a < b ? -1 : a > b ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------

describe("against WPT's reflection data (html/dom/elements-*.js)", () => {
  const data = loadReflectionData();
  const urlTyped = data.filter((entry) => entry.type === "url");
  const key = (element: string, idl: string): string => `${element}.${idl}`;

  /** Reflected URL attributes of the catalogue that the data does not type "url", with why. */
  const onlyInCatalogue: Readonly<Record<string, string>> = {
    "form.action": "elements-forms.js comments it out: \"TODO: action is special\" (missing or empty, its getter gives the document URL)",
    "button.formAction": "elements-forms.js comments it out: \"TODO: formAction is special\" (as form.action)",
    "input.formAction": "elements-forms.js comments it out: \"TODO: formAction is special\" (as form.action)",
    "base.href": "elements-metadata.js comments it out: \"XXX href is weird\" (base.href parses against the fallback base URL)",
    "blockquote.cite": "it is in elements-grouping.js, which is not vendored (see test/fixtures/wpt/README.md)",
  };
  /** IDL attributes the data types "url" that the catalogue does not reflect, with why. */
  const onlyInData: Readonly<Record<string, string>> = {
    "applet.codeBase": "the data predates the removal of applet from the HTML Standard: applet is an HTMLUnknownElement now",
    "applet.object": "likewise (applet's object attribute was never a catalogue row: no element of the standard has it)",
  };

  it("is read: every vendored file evaluates, and the URL-typed entries are the ones expected in number", () => {
    expect(new Set(data.map((e) => e.file)).size).toBe(7);
    expect(urlTyped.length).toBeGreaterThanOrEqual(20);
  });

  it("every \"url\" entry of the data is a reflected URL attribute of the catalogue, and vice versa, but for the listed differences", () => {
    const inData = new Set(urlTyped.map((e) => key(e.element, e.idl)));
    const inCatalogue = new Set(reflectedURLAttributes.map((e) => key(e.element, e.name)));
    const missingFromData = [...inCatalogue].filter((k) => !inData.has(k)).sort();
    const missingFromCatalogue = [...inData].filter((k) => !inCatalogue.has(k)).sort();
    expect(missingFromData).toEqual(Object.keys(onlyInCatalogue).sort());
    expect(missingFromCatalogue).toEqual(Object.keys(onlyInData).sort());
    expect(inData.has("img.lowsrc") && inCatalogue.has("img.lowsrc")).toBe(true);
  });

  it("each shared one reflects the same content attribute", () => {
    for (const entry of urlTyped) {
      const ours = reflectedURLAttributes.find((e) => e.element === entry.element && e.name === entry.idl);
      if (ours === undefined) continue;
      expect(ours.contentAttribute, key(entry.element, entry.idl)).toBe(entry.contentAttribute);
    }
  });

  it("an attribute the data reflects as another type (ping, srcset, srcdoc, background, archive, meta content) is a catalogue row without a URL reflection", () => {
    const others = data.filter((e) => e.type !== "url" && rowsFor(e.element, e.contentAttribute).length > 0);
    expect(others.map((e) => `${key(e.element, e.idl)}: ${e.type}`).sort()).toEqual([
      "a.ping: string",
      "applet.archive: string",
      "area.ping: urls",
      "body.background: string",
      "iframe.srcdoc: string",
      "img.srcset: string",
      "meta.content: string",
      "object.archive: string",
    ]);
    for (const entry of others) {
      for (const row of rowsFor(entry.element, entry.contentAttribute)) expect(row.reflection, key(entry.element, entry.idl)).toBeNull();
    }
  });

  it("the loader evaluates a data file with stubbed globals only, and refuses one that is not data", () => {
    const entries: ReflectionDataEntry[] = parseReflectionData(
      'var x = { img: { lowsrc: {type: "url"}, crossOrigin: {type: {type: "enum"}}, htmlFor: {type: "string", domAttrName: "for"} } };\nmergeElements(x);\nextraTests.push(function() { throw 1; });',
      "elements-embedded.js",
    );
    expect(entries.map((e) => [e.element, e.idl, e.type, e.contentAttribute])).toEqual([
      ["img", "lowsrc", "url", "lowsrc"],
      ["img", "crossOrigin", "enum", "crossorigin"],
      ["img", "htmlFor", "string", "for"],
    ]);
    expect(() => parseReflectionData("mergeElements({ img: { src: 1 } });", "elements-embedded.js")).toThrow(/no reflection type/);
    expect(() => parseReflectionData('eval("1"); mergeElements({});', "elements-embedded.js")).toThrow(/does not evaluate/);
    expect(() => parseReflectionData("var x = {};", "elements-embedded.js")).toThrow(/0 times/);
    expect(() => parseReflectionData("while (true) {}", "elements-embedded.js")).toThrow(/does not evaluate/);
  });
});

// ---------------------------------------------------------------------------------------------

interface IndexRow {
  readonly attribute: string;
  readonly elements: readonly string[] | "HTML elements";
  readonly value: string;
}

describe("against the HTML Standard's attribute index (URL-valued rows)", () => {
  const index = JSON.parse(readFileSync(join(repoRoot, "test/fixtures/html-standard/url-valued-attributes.json"), "utf8")) as {
    source: string;
    date: string;
    valueTypes: string[];
    rows: IndexRow[];
  };
  /** The kind of URL attribute each value type of the index is. */
  const kindOf: Readonly<Record<string, AttributeKind>> = {
    "Valid URL potentially surrounded by spaces": "single",
    "Valid non-empty URL potentially surrounded by spaces": "single",
    "Set of space-separated tokens consisting of valid non-empty URLs": "list",
    "Comma-separated list of image candidate strings": "srcset",
  };
  const compared = new Set(Object.values(kindOf));
  /**
   * The element an Element(s) cell names, without the index's qualifier: "source (in video or
   * audio)" is the catalogue's source row, which covers a source anywhere (the IDL attribute
   * reflects src whatever the parent; in a picture it is only not conforming).
   */
  const elementOf = (cell: string): string => cell.replace(/ \(in [^)]*\)$/, "");

  it("is the table it says it is", () => {
    expect(index.source).toBe("https://html.spec.whatwg.org/multipage/indices.html#attributes-3");
    expect(index.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(index.valueTypes.sort()).toEqual(Object.keys(kindOf).sort());
    expect(index.rows.length).toBe(13);
  });

  it("keeps the Element(s) cells as the table gives them, qualifiers included", () => {
    // The index restricts src on source to a source in video or audio (in picture, a source
    // has srcset instead); the row was first written without the qualifier.
    const src = index.rows.find((row) => row.attribute === "src");
    expect(src?.elements).toContain("source (in video or audio)");
    expect(src?.elements).not.toContain("source");
  });

  it("every row is a conforming catalogue row of the kind its value type says, element by element", () => {
    for (const row of index.rows) {
      expect(Object.keys(kindOf), `${row.attribute}: ${row.value}`).toContain(row.value);
      const elements = row.elements === "HTML elements" ? ["*"] : row.elements.map(elementOf);
      for (const element of elements) {
        const ours = row.elements === "HTML elements"
          ? catalogue.filter((r) => r.namespace === "html" && r.attribute === row.attribute && r.elements === "*")
          : rowsFor(element, row.attribute).filter((r) => r.elements !== "*");
        expect(ours.length, `${element} ${row.attribute}`).toBe(1);
        expect(ours[0]!.kind, `${element} ${row.attribute}`).toBe(kindOf[row.value]);
        expect(ours[0]!.obsolete, `${element} ${row.attribute}`).toBe(false);
      }
    }
  });

  it("every conforming HTML row of a compared kind is in the index, and no obsolete row is", () => {
    const listed = new Set(
      index.rows.flatMap((row) => (row.elements === "HTML elements" ? [`* ${row.attribute}`] : row.elements.map((e) => `${elementOf(e)} ${row.attribute}`))),
    );
    const conforming: string[] = [];
    for (const row of catalogue) {
      if (row.namespace !== "html" || !compared.has(row.kind)) continue;
      for (const element of row.elements === "*" ? ["*"] : row.elements) {
        const k = `${element} ${row.attribute}`;
        if (row.obsolete) expect(listed.has(k), `${k} is obsolete`).toBe(false);
        else conforming.push(k);
      }
    }
    expect(conforming.sort()).toEqual([...listed].sort());
  });

  it("the kinds not compared are the catalogue's own additions: itemtype, meta refresh, style, srcdoc", () => {
    expect(
      catalogue
        .filter((row) => row.namespace === "html" && !compared.has(row.kind))
        .map((row) => `${row.attribute}: ${row.kind}`)
        .sort(),
    ).toEqual(["content: refresh", "itemtype: absolute-list", "srcdoc: srcdoc", "style: css"]);
  });
});
