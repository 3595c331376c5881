/**
 * The shape of the browser differential suite's data: generated documents,
 * the program each one runs (reads and mutations, in order), what a browser
 * (or a docbase layer) observes, and what the standard says.
 *
 * A case is one value read from one document: `a.href`, `img.src`,
 * `document.baseURI`, an `<a>`'s `port` after a setter, … Each has a stable
 * id (`<document id>/<probe name>`), so the list of known browser deviations
 * can name it.
 *
 * @module
 */

/** The path from a document's root to one of its frames: iframe element ids, outermost first; `@name` names a held document. */
export type FramePath = readonly string[];

/** The HTMLHyperlinkElementUtils members of `<a>` and `<area>` (https://html.spec.whatwg.org/multipage/links.html#htmlhyperlinkelementutils). */
export const hyperlinkGetters = [
  "href",
  "origin",
  "protocol",
  "username",
  "password",
  "host",
  "hostname",
  "port",
  "pathname",
  "search",
  "hash",
] as const;
export type HyperlinkGetter = (typeof hyperlinkGetters)[number];

/** The members that have a setter (all but origin). */
export type HyperlinkSetter = Exclude<HyperlinkGetter, "origin">;

/**
 * What a getter is, for the standard's answer:
 * - `reflect`: a URL-reflecting IDL attribute (https://html.spec.whatwg.org/multipage/common-dom-interfaces.html#reflecting-content-attributes-in-idl-attributes);
 * - `document-url-if-empty`: form.action, button/input.formAction — the document's URL when the attribute is missing or empty;
 * - `hyperlink`: one of the 11 HTMLHyperlinkElementUtils members;
 * - `base-href`: the base element's href getter (parsed against the fallback base URL).
 */
export type GetterKind = "reflect" | "document-url-if-empty" | "hyperlink" | "base-href";

/** Read `element[prop]` of the element with id `el`. */
export interface GetAction {
  readonly t: "get";
  readonly id: string;
  readonly f: FramePath;
  readonly el: string;
  /** The element's local name. */
  readonly tag: string;
  readonly prop: string;
  /** The content attribute the getter reads. */
  readonly attr: string;
  readonly kind: GetterKind;
  /** True when the element was in the served markup (not inserted by script) and nothing mutated its document yet: link extraction can answer. */
  readonly static: boolean;
}

/** Read a document-level value. */
export interface DocAction {
  readonly t: "doc";
  readonly id: string;
  readonly f: FramePath;
  readonly what: "baseURI" | "URL" | "characterSet";
  /** As for {@link GetAction}: the document is as served. */
  readonly static: boolean;
}

/** Create a detached `<a>`/`<area>` in the frame's document, set its href attribute, run one setter, read `href`. */
export interface SetAction {
  readonly t: "set";
  readonly id: string;
  readonly f: FramePath;
  readonly tag: "a" | "area";
  readonly href: string;
  readonly prop: HyperlinkSetter;
  readonly value: string;
}

/** Mutations: they change the document and produce no value. */
export interface SetAttrAction {
  readonly t: "setAttr";
  readonly f: FramePath;
  readonly el: string;
  readonly name: string;
  readonly value: string;
}
export interface RemoveAttrAction {
  readonly t: "removeAttr";
  readonly f: FramePath;
  readonly el: string;
  readonly name: string;
}
export interface RemoveAction {
  readonly t: "remove";
  readonly f: FramePath;
  readonly el: string;
}
/** `insertAdjacentHTML(where, html)` on `head`, `body` or the element with that id; then wait for the load of the iframes named in `load`. */
export interface InsertAction {
  readonly t: "insert";
  readonly f: FramePath;
  readonly el: string;
  readonly where: "beforebegin" | "afterbegin" | "beforeend" | "afterend";
  readonly html: string;
  readonly load?: readonly string[];
}
/** `element[prop] = value` (an IDL setter). */
export interface SetPropAction {
  readonly t: "setProp";
  readonly f: FramePath;
  readonly el: string;
  readonly prop: string;
  readonly value: string;
}
/** Keep a reference to the frame's document as `@as`, so it can be read after its iframe is removed. */
export interface HoldAction {
  readonly t: "hold";
  readonly f: FramePath;
  readonly as: string;
}

export type ReadAction = GetAction | DocAction | SetAction;
export type Action = ReadAction | SetAttrAction | RemoveAttrAction | RemoveAction | InsertAction | SetPropAction | HoldAction;

/** A resource the local server serves (path below the document's directory). */
export interface ServedResource {
  /** Path after the origin, beginning with "/". */
  readonly path: string;
  readonly body: Uint8Array;
  /** The full Content-Type header. */
  readonly contentType: string;
}

/** What kind of document a frame holds. */
export type FrameKind = "http" | "srcdoc" | "about:blank";

/** A frame of a generated document, as the generator modelled it (for layers that build documents themselves). */
export interface FrameInfo {
  readonly path: FramePath;
  readonly kind: FrameKind;
  /** The frame's parent frame path, or null for the document itself. */
  readonly parent: FramePath | null;
  /** For `http` frames: the served path (after the origin); the document itself and nested http iframes. */
  readonly servedPath?: string;
  /** The document's URL (http frames: with the fragment the iframe's src carries). */
  readonly url: string;
  /** The document's encoding (Encoding Standard name). */
  readonly encoding: string;
}

/**
 * The standard's inputs for one read, as the generator's model of the
 * document says (https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url):
 * the reference answer is computed from these with whatwg-url.
 */
export interface ModelContext {
  /** The content attribute's value (null: absent). For `set`: the href. */
  readonly attr: string | null;
  /** The document base URL at the time of the read. */
  readonly base: string;
  /** The document's fallback base URL. */
  readonly fallback: string;
  /** The document's URL. */
  readonly url: string;
  /** The document's encoding (Encoding Standard name). */
  readonly encoding: string;
}

/** The model's answer for a document-level read, with what it came from (for explaining a browser's deviation). */
export interface DocumentFact {
  readonly expected: string;
  /** For baseURI: the href of the first base element with one (null: none), the fallback base URL, the encoding. */
  readonly baseHref?: string | null;
  readonly fallback?: string;
  readonly encoding?: string;
}

/** One generated document: what is served, and the program that reads it. */
export interface GeneratedDocument {
  /** Stable id: `<category>-<nnn>`. */
  readonly id: string;
  readonly category: string;
  /** One line saying what this document tests. */
  readonly title: string;
  /** Path of the document itself (after the origin, may carry a query and fragment). */
  readonly path: string;
  /** Every resource served for it: the document and its nested http iframes. */
  readonly resources: readonly ServedResource[];
  /** The document's encoding label as declared, and how (header, meta, or BOM). */
  readonly encoding: { readonly name: string; readonly label: string; readonly declaredBy: "header" | "meta" | "bom+header" };
  /** The document's markup as a string (before encoding to bytes). */
  readonly html: string;
  readonly frames: readonly FrameInfo[];
  readonly actions: readonly Action[];
  /** For every read action id: the model's inputs for the standard's answer. */
  readonly model: Readonly<Record<string, ModelContext | DocumentFact>>;
}

/** What the browser reports for one read. */
export interface Observation {
  /** The value (null: the getter returned null or the read threw). */
  readonly v: string | null;
  /** When the read threw, its message. */
  readonly err?: string;
  /** The content attribute's value the browser saw (get/set). */
  readonly a?: string | null;
  /** The document's baseURI, URL and characterSet at the time of the read. */
  readonly b?: string;
  readonly u?: string;
  readonly c?: string;
}

/** Case id → value. */
export type Values = Map<string, string | null>;
