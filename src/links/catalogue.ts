/**
 * Links' view of the catalogue of URL-bearing attributes: the lookups that
 * link extraction and rewriting make for each attribute they read. The
 * catalogue itself (which attributes, of which elements, hold which kind of
 * URL) lives in html (`src/html/url-attribute-catalogue.ts`), the
 * one table that url-utils' reflected URL attributes and the jsdom plugin
 * read too; these lookups are derived from it once, when the module loads.
 *
 * @module
 */

import { type AttributeKind, type CatalogueEntry, catalogue } from "../html/index.ts";

export { catalogue, type AttributeKind, type CatalogueEntry };

/** The catalogue as lookups: namespace → attribute → (element → row, and the row for every element). */
interface Index {
  readonly byName: Map<string, Map<string, CatalogueEntry>>;
  readonly any: Map<string, CatalogueEntry>;
}

function buildIndex(namespace: "html" | "svg"): Index {
  const byName = new Map<string, Map<string, CatalogueEntry>>();
  const any = new Map<string, CatalogueEntry>();
  for (const row of catalogue) {
    if (row.namespace !== namespace) continue;
    if (row.elements === "*") {
      any.set(row.attribute, row);
      continue;
    }
    let perElement = byName.get(row.attribute);
    if (perElement === undefined) byName.set(row.attribute, (perElement = new Map()));
    for (const element of row.elements) perElement.set(element, row);
  }
  return { byName, any };
}

const htmlIndex = buildIndex("html");
const svgIndex = buildIndex("svg");

/**
 * The catalogue row for attribute `attribute` (qualified name as written:
 * `"xlink:href"`) of element `element` in `namespace`, or undefined when
 * it carries no URL.
 *
 * @example
 * ```ts
 * lookupAttribute("html", "img", "srcset")?.kind; // "srcset"
 * lookupAttribute("svg", "use", "xlink:href")?.kind; // "single"
 * lookupAttribute("html", "div", "href"); // undefined
 * ```
 */
export function lookupAttribute(namespace: "html" | "svg", element: string, attribute: string): CatalogueEntry | undefined {
  const index = namespace === "html" ? htmlIndex : svgIndex;
  return index.byName.get(attribute)?.get(element) ?? index.any.get(attribute);
}

/**
 * The names of the attributes that hold CSS (`style`, SVG presentation attributes).
 *
 * @example
 * ```ts
 * cssAttributeNames.has("fill"); // true
 * ```
 */
export const cssAttributeNames: ReadonlySet<string> = new Set(catalogue.filter((row) => row.kind === "css").map((row) => row.attribute));

/**
 * The local names (as in a parsed tree: `xlink:href` is `href` in the XLink
 * namespace) of every attribute that may carry a URL on some element: a
 * fast first test before {@link lookupAttribute}.
 *
 * @example
 * ```ts
 * urlAttributeNames.has("srcset"); // true
 * urlAttributeNames.has("class"); // false
 * ```
 */
export const urlAttributeNames: ReadonlySet<string> = new Set(
  catalogue.map((row) => (row.attribute.startsWith("xlink:") ? row.attribute.slice(6) : row.attribute)),
);
