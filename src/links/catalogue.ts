/**
 * The catalogue of URL-bearing attributes: every attribute whose value is
 * (or holds) a URL, from the HTML Standard's attribute index
 * (https://html.spec.whatwg.org/multipage/indices.html#attributes-3), its
 * obsolete features (https://html.spec.whatwg.org/multipage/obsolete.html),
 * microdata, SVG 2, and the CSS in `style` attributes.
 *
 * @module
 */

/**
 * How an attribute holds its URLs, which decides how it is split and
 * resolved:
 *
 * - `"single"`: one URL, the value with leading and trailing ASCII
 *   whitespace removed ("valid URL potentially surrounded by spaces"),
 *   encoding-parsed relative to the document;
 * - `"list"`: URLs separated by ASCII whitespace (`ping`, and the obsolete
 *   `profile` and `archive`), each encoding-parsed;
 * - `"srcset"`: a comma-separated list of image candidate strings
 *   (`srcset`, `imagesrcset`), split by the standard's algorithm;
 * - `"absolute-list"`: `itemtype`, absolute URLs separated by ASCII
 *   whitespace, parsed without a base (a relative one gives `url: null`);
 * - `"refresh"`: the `content` of `<meta http-equiv=refresh>`, read by the
 *   shared declarative refresh steps;
 * - `"css"`: a `style` attribute or an SVG presentation attribute, whose
 *   `url()` references are read with a CSS tokenizer;
 * - `"srcdoc"`: an iframe's `srcdoc`, a whole document whose links are
 *   extracted in turn (it gives no entry of its own).
 *
 * @example
 * ```ts
 * const kind: AttributeKind = "srcset";
 * ```
 */
export type AttributeKind = "single" | "list" | "srcset" | "absolute-list" | "refresh" | "css" | "srcdoc";

/**
 * One row of the catalogue.
 *
 * @example
 * ```ts
 * const row: CatalogueEntry = {
 *   namespace: "html", elements: ["img"], attribute: "longdesc", kind: "single", obsolete: true,
 *   spec: "https://html.spec.whatwg.org/multipage/obsolete.html#attr-img-longdesc",
 * };
 * ```
 */
export interface CatalogueEntry {
  /** The namespace of the elements: `"html"` or `"svg"`. */
  readonly namespace: "html" | "svg";
  /** The local names of the elements that carry it, or `"*"` for every element of the namespace. */
  readonly elements: readonly string[] | "*";
  /** The attribute's qualified name as written in HTML (`"href"`, `"xlink:href"`). */
  readonly attribute: string;
  readonly kind: AttributeKind;
  /** True for attributes the HTML Standard lists as obsolete (non-conforming, yet still links). */
  readonly obsolete: boolean;
  /** Where the standard defines it. */
  readonly spec: string;
}

const HTML = "https://html.spec.whatwg.org/multipage/";

function html(elements: readonly string[] | "*", attribute: string, spec: string, kind: AttributeKind, obsolete = false): CatalogueEntry {
  return { namespace: "html", elements, attribute, kind, obsolete, spec: HTML + spec };
}

function svg(attribute: string, kind: AttributeKind, spec: string): CatalogueEntry {
  return { namespace: "svg", elements: "*", attribute, kind, obsolete: false, spec };
}

const svgPresentation = "https://www.w3.org/TR/SVG2/styling.html#PresentationAttributes";

/**
 * Every URL-bearing attribute docbase knows, in the order of the HTML
 * Standard's attribute index, then the obsolete ones, then SVG.
 *
 * Elements in the HTML namespace match by local name; `<meta content>` is
 * a link only with `http-equiv="refresh"` (ASCII case-insensitive). In SVG,
 * `href` and `xlink:href` are URLs on every element (SVG 2 gives `href` to
 * every element that references another resource), and so are `url()`
 * references in the presentation attributes that take one.
 *
 * @example
 * ```ts
 * catalogue.filter((row) => row.kind === "srcset").map((row) => row.attribute); // ["imagesrcset", "srcset"]
 * ```
 */
export const catalogue: readonly CatalogueEntry[] = Object.freeze([
  html(["form"], "action", "form-control-infrastructure.html#attr-fs-action", "single"),
  html(["blockquote", "del", "ins", "q"], "cite", "edits.html#attr-mod-cite", "single"),
  html(["object"], "data", "iframe-embed-object.html#attr-object-data", "single"),
  html(["button", "input"], "formaction", "form-control-infrastructure.html#attr-fs-formaction", "single"),
  html(["a", "area"], "href", "links.html#attr-hyperlink-href", "single"),
  html(["link"], "href", "semantics.html#attr-link-href", "single"),
  html(["base"], "href", "semantics.html#attr-base-href", "single"),
  html(["link"], "imagesrcset", "semantics.html#attr-link-imagesrcset", "srcset"),
  html("*", "itemid", "microdata.html#attr-itemid", "single"),
  html("*", "itemtype", "microdata.html#attr-itemtype", "absolute-list"),
  html(["a", "area"], "ping", "links.html#ping", "list"),
  html(["video"], "poster", "media.html#attr-video-poster", "single"),
  html(["audio", "embed", "iframe", "img", "input", "script", "source", "track", "video"], "src", "indices.html#attributes-3", "single"),
  html(["iframe"], "srcdoc", "iframe-embed-object.html#attr-iframe-srcdoc", "srcdoc"),
  html(["img", "source"], "srcset", "images.html#srcset-attributes", "srcset"),
  html(["meta"], "content", "semantics.html#attr-meta-http-equiv-refresh", "refresh"),
  html("*", "style", "dom.html#the-style-attribute", "css"),
  // Obsolete (https://html.spec.whatwg.org/multipage/obsolete.html#non-conforming-features).
  html(["html"], "manifest", "obsolete.html#attr-html-manifest", "single", true),
  html(["head"], "profile", "obsolete.html#attr-head-profile", "list", true),
  html(["img", "iframe", "frame"], "longdesc", "obsolete.html#attr-img-longdesc", "single", true),
  html(["img"], "lowsrc", "obsolete.html#attr-img-lowsrc", "single", true),
  html(["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"], "background", "obsolete.html#attr-background", "single", true),
  html(["object", "applet"], "codebase", "obsolete.html#attr-object-codebase", "single", true),
  html(["object"], "classid", "obsolete.html#attr-object-classid", "single", true),
  html(["object", "applet"], "archive", "obsolete.html#attr-object-archive", "list", true),
  html(["frame", "bgsound"], "src", "obsolete.html#frame", "single", true),
  // SVG.
  svg("href", "single", "https://www.w3.org/TR/SVG2/linking.html#XLinkRefAttrs"),
  svg("xlink:href", "single", "https://www.w3.org/TR/SVG2/linking.html#XLinkRefAttrs"),
  svg("style", "css", "https://www.w3.org/TR/SVG2/styling.html#StyleAttribute"),
  ...["clip-path", "cursor", "fill", "filter", "marker-end", "marker-mid", "marker-start", "mask", "stroke"].map((a) =>
    svg(a, "css", svgPresentation),
  ),
]);

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
