/**
 * The catalogue of URL-bearing attributes: every attribute whose value is or
 * holds a URL (HTML's attribute index
 * https://html.spec.whatwg.org/multipage/indices.html#attributes-3, its
 * obsolete features, microdata, SVG 2, CSS in `style`), each with the IDL
 * attribute that reflects it as a URL, if any. url-utils, links and the
 * jsdom plugin derive their tables from it.
 *
 * @module
 */

/**
 * How an attribute holds its URLs:
 * - `"single"`: one URL, potentially surrounded by spaces;
 * - `"list"`: URLs separated by ASCII whitespace (`ping`, `archive`);
 * - `"srcset"`: image candidate strings (`srcset`, `imagesrcset`);
 * - `"absolute-list"`: `itemtype`, absolute URLs parsed without a base;
 * - `"refresh"`: the `content` of `<meta http-equiv=refresh>`;
 * - `"css"`: `url()` references in `style` or an SVG presentation attribute;
 * - `"srcdoc"`: an iframe's `srcdoc`, a document of its own.
 * @example
 * ```ts
 * const kind: AttributeKind = "srcset";
 * ```
 */
export type AttributeKind = "single" | "list" | "srcset" | "absolute-list" | "refresh" | "css" | "srcdoc";

/**
 * What following an attribute's URL does, for choosing which links a job
 * touches:
 *
 * - `"resource"`: the URL is fetched as the page loads, for the page
 *   (an image, a script, a style sheet, media, an embedded object, CSS
 *   `url()`);
 * - `"navigation"`: the URL is a document the user goes to, or a nested
 *   browsing context loads (`a`, `area`, a form's action, `iframe`,
 *   a refresh);
 * - `"link-type"`: decided by the `<link>` element's `rel` (see
 *   `linkTypesLoad`): an external resource or a hyperlink;
 * - `"svg-element"`: SVG's `href`: a navigation on `a`
 *   (https://www.w3.org/TR/SVG2/linking.html#AElement), a resource on
 *   every other element (`image`, `use`, `script`, `feImage`, …);
 * - null: neither (`cite`, `itemid`, `ping`, a `base` element's href).
 *
 * @example
 * ```ts
 * const load: AttributeLoad = "resource";
 * ```
 */
export type AttributeLoad = "resource" | "navigation" | "link-type" | "svg-element" | null;

/**
 * The name of an IDL attribute that reflects a URL content attribute.
 *
 * @example
 * ```ts
 * const name: ReflectedURLAttributeName = "formAction"; // content attribute "formaction"
 * ```
 */
export type ReflectedURLAttributeName = "href" | "src" | "data" | "poster" | "cite" | "action" | "formAction" | "longDesc" | "lowsrc" | "codeBase";

/**
 * How a reflected URL attribute's getter works: "url" (the HTML "reflect"
 * rules), "action" (a missing or empty attribute gives the document's URL),
 * "base" (`base.href`, against the fallback base URL) or "hyperlink"
 * (HTMLHyperlinkElementUtils' href).
 *
 * @example
 * ```ts
 * const kind: ReflectedURLAttributeKind = "action";
 * ```
 */
export type ReflectedURLAttributeKind = "url" | "action" | "base" | "hyperlink";

/**
 * The IDL attribute that reflects a catalogue row's content attribute as a
 * URL (a `USVString` "defined as containing a URL").
 *
 * @example
 * ```ts
 * const reflection: URLReflection = {
 *   name: "lowsrc", getter: "url", spec: "https://html.spec.whatwg.org/multipage/obsolete.html#dom-img-lowsrc",
 * };
 * ```
 */
export interface URLReflection {
  /** The IDL attribute (`"formAction"` for the content attribute `formaction`). */
  readonly name: ReflectedURLAttributeName;
  readonly getter: ReflectedURLAttributeKind;
  /** Where the HTML Standard defines it. */
  readonly spec: string;
}

/**
 * One row of the catalogue: one attribute of one or more elements.
 *
 * @example
 * ```ts
 * const row: CatalogueEntry = {
 *   namespace: "html", elements: ["img"], attribute: "lowsrc", kind: "single", obsolete: true, load: "resource",
 *   spec: "https://html.spec.whatwg.org/multipage/obsolete.html#attr-img-lowsrc",
 *   reflection: { name: "lowsrc", getter: "url", spec: "https://html.spec.whatwg.org/multipage/obsolete.html#dom-img-lowsrc" },
 * };
 * ```
 */
export interface CatalogueEntry {
  readonly namespace: "html" | "svg";
  /** Local names, or `"*"` for every element of the namespace. */
  readonly elements: readonly string[] | "*";
  /** The qualified name as written in HTML (`"href"`, `"xlink:href"`). */
  readonly attribute: string;
  readonly kind: AttributeKind;
  /** Listed as obsolete (non-conforming, yet still links). */
  readonly obsolete: boolean;
  /** What following its URL does: a resource of the page, a navigation, or neither (see {@link AttributeLoad}). */
  readonly load: AttributeLoad;
  /** Where the standard defines the content attribute. */
  readonly spec: string;
  /**
   * The IDL attribute that reflects it as a URL, or null: reflected as a
   * plain string (`a.ping`, `img.srcset`), not at all (`itemid`, `applet`),
   * or SVG's (see `getSVGHref`).
   */
  readonly reflection: URLReflection | null;
}

const HTML = "https://html.spec.whatwg.org/multipage/";

interface HTMLRowOptions {
  readonly obsolete?: boolean;
  /** What following the URL does (default null: neither a resource nor a navigation). */
  readonly load?: AttributeLoad;
  /** The reflecting IDL attribute: its name (default: the content attribute), getter (default "url") and anchor. */
  readonly reflect?: { readonly name?: ReflectedURLAttributeName; readonly getter?: ReflectedURLAttributeKind; readonly spec: string };
}

function html(elements: readonly string[] | "*", attribute: string, spec: string, kind: AttributeKind, options: HTMLRowOptions = {}): CatalogueEntry {
  const reflect = options.reflect;
  const reflection: URLReflection | null =
    reflect === undefined
      ? null
      : Object.freeze({ name: reflect.name ?? (attribute as ReflectedURLAttributeName), getter: reflect.getter ?? "url", spec: HTML + reflect.spec });
  return Object.freeze({
    namespace: "html",
    elements: elements === "*" ? "*" : Object.freeze([...elements]),
    attribute,
    kind,
    obsolete: options.obsolete ?? false,
    load: options.load ?? null,
    spec: HTML + spec,
    reflection,
  });
}

function svg(attribute: string, kind: AttributeKind, spec: string): CatalogueEntry {
  // SVG's URLs: href names a resource, except on `a`; CSS `url()` loads one.
  const load: AttributeLoad = kind === "css" ? "resource" : "svg-element";
  return Object.freeze({ namespace: "svg", elements: "*", attribute, kind, obsolete: false, load, spec, reflection: null });
}

const svgPresentation = "https://www.w3.org/TR/SVG2/styling.html#PresentationAttributes";
const obsolete = true;
const resource = "resource";
const navigation = "navigation";

/**
 * Every URL-bearing attribute docbase knows, in the order of HTML's attribute
 * index, then the obsolete ones, then SVG; an element has at most one row per
 * attribute. `<meta content>` is a link only with `http-equiv="refresh"`. In
 * SVG, `href` and `xlink:href` are URLs on every element.
 * @example
 * ```ts
 * catalogue.filter((row) => row.kind === "srcset").map((row) => row.attribute); // ["imagesrcset", "srcset"]
 * catalogue.find((row) => row.attribute === "lowsrc")?.reflection?.name; // "lowsrc"
 * ```
 */
export const catalogue: readonly CatalogueEntry[] = Object.freeze([
  html(["form"], "action", "form-control-infrastructure.html#attr-fs-action", "single", {
    load: navigation,
    reflect: { getter: "action", spec: "form-control-infrastructure.html#dom-fs-action" },
  }),
  html(["blockquote"], "cite", "grouping-content.html#attr-blockquote-cite", "single", { reflect: { spec: "grouping-content.html#dom-quote-cite" } }),
  html(["del", "ins"], "cite", "edits.html#attr-mod-cite", "single", { reflect: { spec: "edits.html#dom-mod-cite" } }),
  html(["q"], "cite", "text-level-semantics.html#attr-q-cite", "single", { reflect: { spec: "grouping-content.html#dom-quote-cite" } }),
  html(["object"], "data", "iframe-embed-object.html#attr-object-data", "single", { load: resource, reflect: { spec: "iframe-embed-object.html#dom-object-data" } }),
  html(["button", "input"], "formaction", "form-control-infrastructure.html#attr-fs-formaction", "single", {
    load: navigation,
    reflect: { name: "formAction", getter: "action", spec: "form-control-infrastructure.html#dom-fs-formaction" },
  }),
  html(["a", "area"], "href", "links.html#attr-hyperlink-href", "single", { load: navigation, reflect: { getter: "hyperlink", spec: "links.html#dom-hyperlink-href" } }),
  html(["link"], "href", "semantics.html#attr-link-href", "single", { load: "link-type", reflect: { spec: "semantics.html#dom-link-href" } }),
  html(["base"], "href", "semantics.html#attr-base-href", "single", { reflect: { getter: "base", spec: "semantics.html#dom-base-href" } }),
  html(["link"], "imagesrcset", "semantics.html#attr-link-imagesrcset", "srcset", { load: "link-type" }),
  html("*", "itemid", "microdata.html#attr-itemid", "single"),
  html("*", "itemtype", "microdata.html#attr-itemtype", "absolute-list"),
  html(["a", "area"], "ping", "links.html#ping", "list"),
  html(["video"], "poster", "media.html#attr-video-poster", "single", { load: resource, reflect: { spec: "media.html#dom-video-poster" } }),
  html(["audio", "video"], "src", "media.html#attr-media-src", "single", { load: resource, reflect: { spec: "media.html#dom-media-src" } }),
  html(["embed"], "src", "iframe-embed-object.html#attr-embed-src", "single", { load: resource, reflect: { spec: "iframe-embed-object.html#dom-embed-src" } }),
  html(["iframe"], "src", "iframe-embed-object.html#attr-iframe-src", "single", { load: navigation, reflect: { spec: "iframe-embed-object.html#dom-iframe-src" } }),
  html(["img"], "src", "embedded-content.html#attr-img-src", "single", { load: resource, reflect: { spec: "embedded-content.html#dom-img-src" } }),
  html(["input"], "src", "input.html#attr-input-src", "single", { load: resource, reflect: { spec: "input.html#dom-input-src" } }),
  html(["script"], "src", "scripting.html#attr-script-src", "single", { load: resource, reflect: { spec: "scripting.html#dom-script-src" } }),
  html(["source"], "src", "embedded-content.html#attr-source-src", "single", { load: resource, reflect: { spec: "embedded-content.html#dom-source-src" } }),
  html(["track"], "src", "media.html#attr-track-src", "single", { load: resource, reflect: { spec: "media.html#dom-track-src" } }),
  html(["iframe"], "srcdoc", "iframe-embed-object.html#attr-iframe-srcdoc", "srcdoc"),
  html(["img", "source"], "srcset", "images.html#srcset-attributes", "srcset", { load: resource }),
  html(["meta"], "content", "semantics.html#attr-meta-http-equiv-refresh", "refresh", { load: navigation }),
  html("*", "style", "dom.html#the-style-attribute", "css", { load: resource }),
  // Obsolete (https://html.spec.whatwg.org/multipage/obsolete.html#non-conforming-features).
  html(["html"], "manifest", "obsolete.html#attr-html-manifest", "single", { load: resource, obsolete }),
  html(["head"], "profile", "obsolete.html#attr-head-profile", "list", { obsolete }),
  html(["img"], "longdesc", "obsolete.html#attr-img-longdesc", "single", { load: navigation, obsolete, reflect: { name: "longDesc", spec: "obsolete.html#dom-img-longdesc" } }),
  html(["iframe"], "longdesc", "obsolete.html#attr-iframe-longdesc", "single", {
    load: navigation,
    obsolete,
    reflect: { name: "longDesc", spec: "obsolete.html#dom-iframe-longdesc" },
  }),
  html(["frame"], "longdesc", "obsolete.html#frame", "single", {
    load: navigation,
    obsolete,
    reflect: { name: "longDesc", spec: "obsolete.html#dom-frame-longdesc" },
  }),
  html(["img"], "lowsrc", "obsolete.html#attr-img-lowsrc", "single", { load: resource, obsolete, reflect: { spec: "obsolete.html#dom-img-lowsrc" } }),
  html(["body", "table", "thead", "tbody", "tfoot", "tr", "td", "th"], "background", "obsolete.html#attr-background", "single", { load: resource, obsolete }),
  html(["object"], "codebase", "obsolete.html#attr-object-codebase", "single", { obsolete, reflect: { name: "codeBase", spec: "obsolete.html#dom-object-codebase" } }),
  // applet is no longer an element of the standard (it is an HTMLUnknownElement): no IDL attribute.
  html(["applet"], "codebase", "obsolete.html#applet", "single", { obsolete }),
  html(["object"], "classid", "obsolete.html#attr-object-classid", "single", { obsolete }),
  html(["object", "applet"], "archive", "obsolete.html#attr-object-archive", "list", { load: resource, obsolete }),
  html(["frame"], "src", "obsolete.html#frame", "single", { load: navigation, obsolete, reflect: { spec: "obsolete.html#dom-frame-src" } }),
  html(["bgsound"], "src", "obsolete.html#bgsound", "single", { load: resource, obsolete }),
  // SVG.
  svg("href", "single", "https://www.w3.org/TR/SVG2/linking.html#XLinkRefAttrs"),
  svg("xlink:href", "single", "https://www.w3.org/TR/SVG2/linking.html#XLinkRefAttrs"),
  svg("style", "css", "https://www.w3.org/TR/SVG2/styling.html#StyleAttribute"),
  ...["clip-path", "cursor", "fill", "filter", "marker-end", "marker-mid", "marker-start", "mask", "stroke"].map((a) => svg(a, "css", svgPresentation)),
]);
