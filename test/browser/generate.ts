/**
 * The seeded generator of the browser differential suite: several hundred
 * documents, each with the program of reads and mutations that runs in it,
 * and — for every read — the model's inputs for the standard's answer.
 *
 * The model is the HTML Standard's document-base rules, as
 * ../shared/wpt-catalogue.md §0 sums them up:
 * - the document base URL is the frozen base URL of the first HTML `base`
 *   element with an href in the document tree (template contents, SVG and
 *   MathML `base`, and `noscript` text do not count), else the fallback
 *   base URL;
 * - the frozen base URL parses href against the fallback base URL with the
 *   document's encoding; failure, data: and javascript: give the fallback
 *   base URL (the next `base` is not tried);
 * - the fallback base URL of an about:blank or srcdoc document is its about
 *   base URL: a snapshot of its creator's document base URL when the iframe
 *   was inserted, never updated; of any other document, its URL;
 * - srcdoc and initial about:blank documents are UTF-8;
 * - getters re-resolve against the base at the time of each read.
 *
 * Categories: base (base element variants), href (hrefs through every
 * HTMLHyperlinkElementUtils getter), reflect (every URL-reflecting
 * attribute), setter (the WPT setters data and more, on `<a>` and `<area>`),
 * encoding (legacy-encoded documents), frames (about:blank and srcdoc
 * iframes, nested), dynamic (base changes at run time), urltestdata (the
 * WPT URL parsing data through `<a>`, base set by `<base>`).
 *
 * @module
 */

import type {
  Action,
  DocumentFact,
  FrameInfo,
  FrameKind,
  GeneratedDocument,
  GetterKind,
  HyperlinkGetter,
  HyperlinkSetter,
  ModelContext,
  ServedResource,
} from "./cases.ts";
import { hyperlinkGetters } from "./cases.ts";
import { encodeDocument } from "./encode-document.ts";
import { baseVariants, encodingCharacters, handHrefs, otherCharacters, randomHref, type BaseVariant } from "./href-corpus.ts";
import { Random } from "./random.ts";
import { referenceFrozenBaseURL, referenceResolve } from "./reference.ts";
import { parseSetterTestData, parseURLTestData, readWPTFile } from "../wpt-data.ts";

/** The default seed; change it only together with the list of known browser deviations. */
export const defaultSeed = "docbase-browser-1";

export interface SuiteOptions {
  /** The local server's origin, `http://127.0.0.1:<port>`. */
  readonly origin: string;
  readonly seed?: string;
  /** Only these categories (default all). */
  readonly categories?: readonly string[];
}

export interface Suite {
  readonly seed: string;
  readonly origin: string;
  readonly documents: readonly GeneratedDocument[];
}

/** Where a link extractor finds the element of a static read: its resource, srcdoc depth, element, attribute, value, and which occurrence of those it is. */
export interface LinkKey {
  readonly resource: string;
  readonly srcdoc: number;
  readonly element: string;
  readonly attribute: string;
  readonly value: string;
  readonly occurrence: number;
}

/** The link keys of a document's static reads, by case id (kept beside the suite, for the link-extraction layer). */
export const linkKeys = new WeakMap<GeneratedDocument, ReadonlyMap<string, LinkKey>>();

// ---------------------------------------------------------------------------
// Encodings.

export interface EncodingVariant {
  /** Encoding Standard name. */
  readonly name: string;
  /** The label the document declares. */
  readonly label: string;
  readonly declaredBy: "header" | "meta" | "bom+header";
}

export const encodingVariants: readonly EncodingVariant[] = [
  { name: "UTF-8", label: "utf-8", declaredBy: "header" },
  { name: "UTF-8", label: "utf8", declaredBy: "meta" },
  { name: "windows-1252", label: "windows-1252", declaredBy: "header" },
  { name: "windows-1252", label: "latin1", declaredBy: "header" },
  { name: "windows-1252", label: "iso-8859-1", declaredBy: "meta" },
  { name: "windows-1251", label: "windows-1251", declaredBy: "header" },
  { name: "windows-1251", label: "x-cp1251", declaredBy: "meta" },
  { name: "Shift_JIS", label: "shift_jis", declaredBy: "header" },
  { name: "Shift_JIS", label: "sjis", declaredBy: "meta" },
  { name: "EUC-KR", label: "euc-kr", declaredBy: "header" },
  { name: "gb18030", label: "gb18030", declaredBy: "header" },
  { name: "GBK", label: "gb2312", declaredBy: "header" },
  { name: "Big5", label: "big5", declaredBy: "header" },
  { name: "ISO-2022-JP", label: "iso-2022-jp", declaredBy: "header" },
  { name: "UTF-16LE", label: "utf-16le", declaredBy: "bom+header" },
];
const utf8: EncodingVariant = encodingVariants[0] as EncodingVariant;

// ---------------------------------------------------------------------------
// Markup.

/**
 * A double-quoted attribute value that the HTML parser turns back into
 * exactly `value`: `&` and `"` escaped, CR and the C0 controls other than
 * tab, LF and FF as character references (a raw CR would become LF).
 */
export function escapeAttribute(value: string): string {
  let out = "";
  for (const ch of value) {
    const c = ch.codePointAt(0) as number;
    if (ch === "&") out += "&amp;";
    else if (ch === '"') out += "&quot;";
    else if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0c) || c === 0x7f) out += `&#${c};`;
    else out += ch;
  }
  return out;
}

function attributes(list: readonly (readonly [string, string | null])[]): string {
  return list.map(([name, value]) => (value === null ? "" : ` ${name}="${escapeAttribute(value)}"`)).join("");
}

const asciiWhitespace = /^[\t\n\f\r ]+|[\t\n\f\r ]+$/g;

// ---------------------------------------------------------------------------
// The document model and builder.

interface ModelBase {
  readonly id: string;
  href: string | null;
}

interface ElementModel {
  readonly tag: string;
  readonly attrs: Map<string, string>;
}

interface LinkSite {
  readonly srcdoc: number;
  readonly element: string;
  readonly attribute: string;
  readonly value: string;
  readonly elId: string;
}

/** One frame (document) of a generated document, with its model. */
class Frame {
  readonly bases: ModelBase[] = [];
  readonly elements = new Map<string, ElementModel>();
  readonly #head: string[] = [];
  readonly #body: string[] = [];
  #inBody = false;

  readonly doc: DocumentBuilder;
  readonly path: readonly string[];
  readonly kind: FrameKind;
  readonly url: string;
  readonly encoding: EncodingVariant;
  readonly aboutBase: string | null;
  /** The served path of the nearest http frame (this one, for http), and how deep in srcdoc documents below it. */
  readonly resource: string;
  readonly srcdocDepth: number;
  /** True when this document or a srcdoc ancestor (up to the nearest http document) is filled by script: link extraction cannot see it. */
  readonly underScript: boolean;

  constructor(
    doc: DocumentBuilder,
    path: readonly string[],
    kind: FrameKind,
    url: string,
    encoding: EncodingVariant,
    aboutBase: string | null,
    resource: string,
    srcdocDepth: number,
    underScript: boolean,
  ) {
    this.doc = doc;
    this.path = path;
    this.kind = kind;
    this.url = url;
    this.encoding = encoding;
    this.aboutBase = aboutBase;
    this.resource = resource;
    this.srcdocDepth = srcdocDepth;
    this.underScript = underScript;
  }

  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#fallback-base-url */
  fallback(): string {
    if (this.kind === "srcdoc") return this.aboutBase as string;
    if (this.kind === "about:blank" && this.aboutBase !== null) return this.aboutBase;
    return this.url;
  }

  /** https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url */
  documentBase(): string {
    const first = this.bases.find((b) => b.href !== null);
    if (first === undefined) return this.fallback();
    return referenceFrozenBaseURL(first.href as string, this.fallback(), this.encoding.name);
  }

  context(attr: string | null): ModelContext {
    return { attr, base: this.documentBase(), fallback: this.fallback(), url: this.url, encoding: this.encoding.name };
  }

  /** Markup frames (http, srcdoc) collect markup; about:blank frames are filled by script, one insertion per item. */
  get scripted(): boolean {
    return this.kind === "about:blank";
  }

  #add(where: "head" | "body", html: string, load?: string): void {
    if (this.scripted) {
      this.doc.push({ t: "insert", f: this.path, el: where, where: "beforeend", html, ...(load === undefined ? {} : { load: [load] }) }, false);
      return;
    }
    if (where === "head") {
      if (this.#inBody) throw new Error("generator: head markup after body markup");
      this.#head.push(html);
    } else {
      this.#inBody = true;
      this.#body.push(html);
    }
  }

  #site(element: string, attribute: string, value: string | null, elId: string): void {
    if (this.underScript || value === null) return;
    this.doc.site(this.resource, { srcdoc: this.srcdocDepth, element, attribute, value: value.replace(asciiWhitespace, ""), elId });
  }

  /** A `<base>`: modelled when it is an HTML base element in the document tree. Returns its id (probe-able) or null. */
  base(href: string | null, place: "head" | "body" | "template" | "svg" | "math" | "noscript", target?: string): string | null {
    const id = this.doc.nextId("b");
    const attrs = attributes([
      ["id", id],
      ["href", href],
      ["target", target ?? null],
    ]);
    switch (place) {
      case "head":
      case "body":
        this.#add(place, `<base${attrs}>`);
        this.bases.push({ id, href });
        this.elements.set(id, { tag: "base", attrs: new Map(href === null ? [] : [["href", href]]) });
        this.#site("base", "href", href, id);
        return id;
      case "template":
        this.#add("head", `<template><base${attrs}></template>`);
        return null;
      case "noscript":
        // Scripting is on: in head, noscript's content is raw text.
        this.#add("head", `<noscript><base${attrs}></noscript>`);
        return null;
      case "svg":
        this.#add("body", `<svg><base${attrs}></base></svg>`);
        return null;
      case "math":
        this.#add("body", `<math><base${attrs}></base></math>`);
        return null;
    }
  }

  /** An element with attributes (null values are left out); returns its id. */
  element(tag: string, attrs: readonly (readonly [string, string | null])[], options: { where?: "head" | "body"; content?: string; urlAttrs?: readonly string[] } = {}): string {
    const id = this.doc.nextId("e");
    const voidElement = ["img", "embed", "source", "track", "input", "link", "base", "area", "br"].includes(tag);
    const html = `<${tag}${attributes([["id", id], ...attrs])}>${voidElement ? "" : `${options.content ?? ""}</${tag}>`}`;
    this.#add(options.where ?? "body", html);
    const map = new Map<string, string>();
    for (const [name, value] of attrs) if (value !== null) map.set(name, value);
    this.elements.set(id, { tag, attrs: map });
    for (const name of options.urlAttrs ?? []) this.#site(tag, name, map.get(name) ?? null, id);
    return id;
  }

  /**
   * An iframe: `srcdoc` (built now by `build`), `about:blank` (no src, or
   * src about:blank…; filled by script), or `http` (a nested document
   * served beside this one). The child's about base URL is this frame's
   * document base URL now, at insertion.
   */
  iframe(kind: "srcdoc" | "about:blank" | "http", build: (child: Frame) => void, options: { src?: string; encoding?: EncodingVariant; srcdocHead?: string } = {}): Frame {
    const id = this.doc.nextId("f");
    const path = [...this.path, id];
    const snapshot = this.documentBase();
    let child: Frame;
    if (kind === "srcdoc") {
      child = new Frame(this.doc, path, "srcdoc", "about:srcdoc", utf8, snapshot, this.resource, this.srcdocDepth + 1, this.underScript);
      this.doc.frame(child, this.path);
      build(child);
      const html = child.render(options.srcdocHead ?? "");
      this.#add("body", `<iframe${attributes([["id", id], ["srcdoc", html]])}></iframe>`, id);
      this.elements.set(id, { tag: "iframe", attrs: new Map() });
    } else if (kind === "about:blank") {
      const src = options.src ?? null;
      // https://html.spec.whatwg.org/multipage/iframe-embed-object.html#shared-attribute-processing-steps-for-iframe-and-frame-elements
      // "If url matches about:blank and initialInsertion is true, then perform the URL and history
      // update steps given element's content navigable's active document and url": the initial
      // about:blank document takes the src URL (about:blank?x#y) without navigating.
      const url = src === null ? "about:blank" : (referenceResolve(src, this.documentBase(), this.encoding.name) ?? "about:blank");
      child = new Frame(this.doc, path, "about:blank", url, utf8, snapshot, this.resource, 0, true);
      this.doc.frame(child, this.path);
      this.#add("body", `<iframe${attributes([["id", id], ["src", src]])}></iframe>`);
      this.elements.set(id, { tag: "iframe", attrs: new Map(src === null ? [] : [["src", src]]) });
      this.#site("iframe", "src", src, id);
      build(child);
    } else {
      const encoding = options.encoding ?? utf8;
      const servedPath = `${this.doc.directory}${id}/child.html`;
      const url = `${this.doc.origin}${servedPath}`;
      child = new Frame(this.doc, path, "http", url, encoding, null, servedPath, 0, false);
      this.doc.frame(child, this.path, servedPath);
      build(child);
      this.doc.serve(servedPath, child.render(""), encoding);
      this.#add("body", `<iframe${attributes([["id", id], ["src", url]])}></iframe>`, id);
      this.elements.set(id, { tag: "iframe", attrs: new Map([["src", url]]) });
      this.#site("iframe", "src", url, id);
    }
    return child;
  }

  /** A raw piece of markup the model ignores (must not contain base elements that count). */
  raw(where: "head" | "body", html: string): void {
    this.#add(where, html);
  }

  render(extraHead: string): string {
    const meta = this.kind === "http" && this.encoding.declaredBy === "meta" ? `<meta charset="${this.encoding.label}">` : "";
    return `<!DOCTYPE html><html><head>${meta}${extraHead}${this.#head.join("")}</head><body>${this.#body.join("\n")}</body></html>`;
  }
}

class DocumentBuilder {
  readonly actions: Action[] = [];
  readonly model: Record<string, ModelContext | DocumentFact> = {};
  readonly frames: FrameInfo[] = [];
  readonly resources: ServedResource[] = [];
  readonly sites = new Map<string, LinkSite[]>();
  readonly keys = new Map<string, LinkKey>();
  readonly top: Frame;
  readonly directory: string;
  #counter = 0;
  #names = new Set<string>();
  /** Set by the first mutation: from then on, reads are not static. */
  mutated = false;

  readonly id: string;
  readonly category: string;
  readonly origin: string;
  /** The document's path below its directory: "page.html", "a/b/page.html?x=1#frag", … */
  readonly relativePath: string;
  readonly encoding: EncodingVariant;

  constructor(id: string, category: string, origin: string, relativePath: string, encoding: EncodingVariant) {
    this.id = id;
    this.category = category;
    this.origin = origin;
    this.relativePath = relativePath;
    this.encoding = encoding;
    this.directory = `/d/${id}/`;
    const path = `${this.directory}${relativePath}`;
    this.top = new Frame(this, [], "http", `${origin}${path}`, encoding, null, path.replace(/#.*/, ""), 0, false);
    this.frames.push({ path: [], kind: "http", parent: null, servedPath: path.replace(/#.*/, ""), url: `${origin}${path}`, encoding: encoding.name });
  }

  get path(): string {
    return `${this.directory}${this.relativePath}`;
  }

  nextId(prefix: string): string {
    this.#counter += 1;
    return `${prefix}${this.#counter}`;
  }

  frame(frame: Frame, parent: readonly string[], servedPath?: string): void {
    this.frames.push({ path: frame.path, kind: frame.kind, parent, url: frame.url, encoding: frame.encoding.name, ...(servedPath === undefined ? {} : { servedPath }) });
  }

  site(resource: string, site: LinkSite): void {
    let list = this.sites.get(resource);
    if (list === undefined) this.sites.set(resource, (list = []));
    list.push(site);
  }

  serve(path: string, html: string, encoding: EncodingVariant): void {
    const contentType = encoding.declaredBy === "meta" ? "text/html" : `text/html; charset=${encoding.label}`;
    this.resources.push({ path, body: encodeDocument(html, encoding.name), contentType });
  }

  push(action: Action, mutation = true): void {
    if (mutation && action.t !== "hold" && action.t !== "get" && action.t !== "doc" && action.t !== "set") this.mutated = true;
    this.actions.push(action);
  }

  #name(name: string): string {
    let unique = name;
    for (let n = 2; this.#names.has(unique); n++) unique = `${name}~${n}`;
    this.#names.add(unique);
    return `${this.id}/${unique}`;
  }

  /** Read `el[prop]`. */
  get(frame: Frame, el: string, prop: string, attr: string, kind: GetterKind): string {
    const element = frame.elements.get(el);
    if (element === undefined) throw new Error(`generator: no element ${el}`);
    const id = this.#name(`${el}.${prop}`);
    const isStatic = !this.mutated && !frame.underScript;
    this.push({ t: "get", id, f: frame.path, el, tag: element.tag, prop, attr, kind, static: isStatic });
    this.model[id] = frame.context(element.attrs.get(attr) ?? null);
    if (isStatic && (kind !== "hyperlink" || prop === "href")) {
      const sites = this.sites.get(frame.resource) ?? [];
      const site = sites.find((s) => s.elId === el && s.attribute === attr);
      if (site !== undefined) {
        const occurrence = sites.filter(
          (s, i) => i < sites.indexOf(site) && s.srcdoc === site.srcdoc && s.element === site.element && s.attribute === site.attribute && s.value === site.value,
        ).length;
        this.keys.set(id, { resource: frame.resource, srcdoc: site.srcdoc, element: site.element, attribute: attr, value: site.value, occurrence });
      }
    }
    return id;
  }

  /** Read a document-level value. */
  doc(frame: Frame, what: "baseURI" | "URL" | "characterSet", name?: string, path?: readonly string[]): string {
    const id = this.#name(name ?? `${frame.path.length === 0 ? "document" : frame.path.join(">")}.${what}`);
    this.push({ t: "doc", id, f: path ?? frame.path, what, static: path === undefined && !this.mutated && !frame.underScript });
    if (what === "baseURI") {
      const first = frame.bases.find((b) => b.href !== null);
      this.model[id] = { expected: frame.documentBase(), baseHref: first?.href ?? null, fallback: frame.fallback(), encoding: frame.encoding.name };
    } else {
      this.model[id] = { expected: what === "URL" ? frame.url : frame.encoding.name };
    }
    return id;
  }

  /** A setter on a new detached element. */
  set(frame: Frame, tag: "a" | "area", href: string, prop: HyperlinkSetter, value: string, name: string): string {
    const id = this.#name(name);
    this.push({ t: "set", id, f: frame.path, tag, href, prop, value });
    this.model[id] = frame.context(href);
    return id;
  }

  setAttr(frame: Frame, el: string, name: string, value: string): void {
    this.push({ t: "setAttr", f: frame.path, el, name, value });
    frame.elements.get(el)?.attrs.set(name, value);
    const base = frame.bases.find((b) => b.id === el);
    if (base !== undefined && name === "href") base.href = value;
  }

  removeAttr(frame: Frame, el: string, name: string): void {
    this.push({ t: "removeAttr", f: frame.path, el, name });
    frame.elements.get(el)?.attrs.delete(name);
    const base = frame.bases.find((b) => b.id === el);
    if (base !== undefined && name === "href") base.href = null;
  }

  remove(frame: Frame, el: string): void {
    this.push({ t: "remove", f: frame.path, el });
    frame.elements.delete(el);
    const index = frame.bases.findIndex((b) => b.id === el);
    if (index >= 0) frame.bases.splice(index, 1);
  }

  /** `base.href = value` or `a.href = value`: both set the content attribute. */
  setHref(frame: Frame, el: string, value: string): void {
    this.push({ t: "setProp", f: frame.path, el, prop: "href", value });
    frame.elements.get(el)?.attrs.set("href", value);
    const base = frame.bases.find((b) => b.id === el);
    if (base !== undefined) base.href = value;
  }

  /** Insert a new base element first in head (before every other base) or last in body (after every other). */
  insertBase(frame: Frame, href: string | null, at: "head-start" | "body-end"): string {
    const id = this.nextId("b");
    const html = `<base${attributes([["id", id], ["href", href]])}>`;
    this.push({ t: "insert", f: frame.path, el: at === "head-start" ? "head" : "body", where: at === "head-start" ? "afterbegin" : "beforeend", html });
    const model = { id, href };
    if (at === "head-start") frame.bases.unshift(model);
    else frame.bases.push(model);
    frame.elements.set(id, { tag: "base", attrs: new Map(href === null ? [] : [["href", href]]) });
    return id;
  }

  /** Insert an element at the end of body by script. */
  insertElement(frame: Frame, tag: string, attrs: readonly (readonly [string, string | null])[]): string {
    const id = this.nextId("e");
    const html = `<${tag}${attributes([["id", id], ...attrs])}></${tag}>`;
    this.push({ t: "insert", f: frame.path, el: "body", where: "beforeend", html });
    const map = new Map<string, string>();
    for (const [name, value] of attrs) if (value !== null) map.set(name, value);
    frame.elements.set(id, { tag, attrs: map });
    return id;
  }

  /** Insert an iframe at the end of body by script (about:blank, or srcdoc, awaited); its about base URL is the base now. */
  insertIframe(frame: Frame, kind: "about:blank" | "srcdoc", build: (child: Frame) => void): Frame {
    const id = this.nextId("f");
    const path = [...frame.path, id];
    const snapshot = frame.documentBase();
    if (kind === "about:blank") {
      const child = new Frame(this, path, "about:blank", "about:blank", utf8, snapshot, frame.resource, 0, true);
      this.frame(child, frame.path);
      this.push({ t: "insert", f: frame.path, el: "body", where: "beforeend", html: `<iframe id="${id}"></iframe>` });
      frame.elements.set(id, { tag: "iframe", attrs: new Map() });
      build(child);
      return child;
    }
    const child = new Frame(this, path, "srcdoc", "about:srcdoc", utf8, snapshot, frame.resource, frame.srcdocDepth + 1, true);
    this.frame(child, frame.path);
    build(child);
    const html = `<iframe${attributes([["id", id], ["srcdoc", child.render("")]])}></iframe>`;
    this.push({ t: "insert", f: frame.path, el: "body", where: "beforeend", html, load: [id] });
    frame.elements.set(id, { tag: "iframe", attrs: new Map() });
    return child;
  }

  hold(frame: Frame, as: string): void {
    this.push({ t: "hold", f: frame.path, as });
  }

  build(title: string): GeneratedDocument {
    this.serve(this.path.replace(/#.*/, ""), this.top.render(""), this.encoding);
    // The document itself first.
    this.resources.unshift(this.resources.pop() as ServedResource);
    const doc: GeneratedDocument = {
      id: this.id,
      category: this.category,
      title,
      path: this.path,
      resources: this.resources,
      encoding: { name: this.encoding.name, label: this.encoding.label, declaredBy: this.encoding.declaredBy },
      html: this.top.render(""),
      frames: this.frames,
      actions: this.actions,
      model: this.model,
    };
    linkKeys.set(doc, this.keys);
    return doc;
  }
}

// ---------------------------------------------------------------------------
// Elements with URL attributes.

interface Reflected {
  readonly tag: string;
  readonly attr: string;
  readonly prop: string;
  readonly kind: GetterKind;
  readonly extra?: readonly (readonly [string, string])[];
  /** Loading this URL navigates or embeds a document: keep javascript: out. */
  readonly navigates?: boolean;
}

/** Every URL-reflecting IDL attribute the issue lists (and `a`/`area` href, whose getter is HTMLHyperlinkElementUtils'). */
export const reflectedAttributes: readonly Reflected[] = [
  { tag: "a", attr: "href", prop: "href", kind: "hyperlink" },
  { tag: "area", attr: "href", prop: "href", kind: "hyperlink" },
  { tag: "link", attr: "href", prop: "href", kind: "reflect", extra: [["rel", "x-docbase"]] },
  { tag: "img", attr: "src", prop: "src", kind: "reflect" },
  { tag: "script", attr: "src", prop: "src", kind: "reflect", extra: [["type", "text/x-docbase"]] },
  { tag: "iframe", attr: "src", prop: "src", kind: "reflect", navigates: true },
  { tag: "embed", attr: "src", prop: "src", kind: "reflect", navigates: true },
  { tag: "audio", attr: "src", prop: "src", kind: "reflect", extra: [["preload", "none"]] },
  { tag: "video", attr: "src", prop: "src", kind: "reflect", extra: [["preload", "none"]] },
  { tag: "video", attr: "poster", prop: "poster", kind: "reflect", extra: [["preload", "none"]] },
  { tag: "source", attr: "src", prop: "src", kind: "reflect" },
  { tag: "track", attr: "src", prop: "src", kind: "reflect" },
  { tag: "input", attr: "src", prop: "src", kind: "reflect", extra: [["type", "image"]] },
  { tag: "object", attr: "data", prop: "data", kind: "reflect", navigates: true },
  { tag: "form", attr: "action", prop: "action", kind: "document-url-if-empty" },
  { tag: "button", attr: "formaction", prop: "formAction", kind: "document-url-if-empty" },
  { tag: "input", attr: "formaction", prop: "formAction", kind: "document-url-if-empty", extra: [["type", "submit"]] },
  { tag: "q", attr: "cite", prop: "cite", kind: "reflect" },
  { tag: "blockquote", attr: "cite", prop: "cite", kind: "reflect" },
  { tag: "ins", attr: "cite", prop: "cite", kind: "reflect" },
  { tag: "del", attr: "cite", prop: "cite", kind: "reflect" },
];

const anchor = reflectedAttributes[0] as Reflected;
const areaAnchor = reflectedAttributes[1] as Reflected;

/** Put an element carrying `value` in `attr`, and return its id. */
function urlElement(frame: Frame, r: Reflected, value: string | null): string {
  return frame.element(r.tag, [...(r.extra ?? []), [r.attr, value]], { urlAttrs: [r.attr] });
}

/** Read the element's getter (for a/area: the given hyperlink getters). */
function readURL(doc: DocumentBuilder, frame: Frame, el: string, r: Reflected, getters: readonly HyperlinkGetter[] = ["href"]): void {
  if (r.kind === "hyperlink") for (const g of getters) doc.get(frame, el, g, "href", "hyperlink");
  else doc.get(frame, el, r.prop, r.attr, r.kind);
}

function safeFor(r: Reflected, href: string): boolean {
  return !(r.navigates === true && /^\s*j\s*a\s*v\s*a\s*s\s*c\s*r\s*i\s*p\s*t\s*:/i.test(href));
}

/** Document paths (below the document's directory). */
const documentPaths: readonly string[] = [
  "page.html",
  "dir/page.html",
  "a/b/c/page.html?x=1",
  "dir/page.html?q=%C3%BC#frag",
  "dir/",
  "dir/page;p.html#top",
  "x/index.html?",
];

function applyBaseVariant(frame: Frame, variant: BaseVariant): string[] {
  const ids: string[] = [];
  for (const b of variant.bases) {
    if (b.place !== "body") {
      const id = frame.base(b.href, b.place, b.target);
      if (id !== null) ids.push(id);
    }
  }
  return ids;
}

function applyBodyBases(frame: Frame, variant: BaseVariant): string[] {
  const ids: string[] = [];
  for (const b of variant.bases) {
    if (b.place === "body") {
      const id = frame.base(b.href, "body", b.target);
      if (id !== null) ids.push(id);
    }
  }
  return ids;
}

// ---------------------------------------------------------------------------
// Categories.

type CategoryGenerator = (random: Random, origin: string, make: (encoding?: EncodingVariant, path?: string) => DocumentBuilder) => GeneratedDocument[];

/** `<base>` variants, each twice, with random hrefs on random elements. */
const baseCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  for (const variant of baseVariants) {
    for (let copy = 0; copy < 2; copy++) {
      const encoding = copy === 1 && random.chance(0.5) ? random.pick(encodingVariants) : utf8;
      const doc = make(encoding, random.pick(documentPaths));
      const frame = doc.top;
      const bases = applyBaseVariant(frame, variant);
      const anchors: [string, Reflected][] = [];
      for (let i = 0; i < 7; i++) {
        const href = random.chance(0.5) ? random.pick(handHrefs) : randomHref(random);
        anchors.push([urlElement(frame, anchor, href), anchor]);
      }
      for (let i = 0; i < 4; i++) {
        const r = random.pick(reflectedAttributes);
        const href = random.chance(0.5) ? random.pick(["", "x", "/y", "?q", "#f", "../z", "//example.net/w"]) : randomHref(random);
        if (safeFor(r, href)) anchors.push([urlElement(frame, r, href), r]);
      }
      bases.push(...applyBodyBases(frame, variant));
      doc.doc(frame, "baseURI");
      for (const id of bases) doc.get(frame, id, "href", "href", "base-href");
      for (const [id, r] of anchors) readURL(doc, frame, id, r, ["href", ...random.sample(hyperlinkGetters.slice(1), 2)]);
      docs.push(doc.build(`base variant "${variant.name}" (${encoding.label})`));
    }
  }
  return docs;
};

/** Hrefs through the HTMLHyperlinkElementUtils getters: every hand-picked href with all 11, random ones with a few. */
const hrefCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  const hand = [...handHrefs];
  const perDocument = 6;
  const count = Math.ceil(hand.length / perDocument) + 20;
  for (let n = 0; n < count; n++) {
    const doc = make(utf8, random.pick(documentPaths));
    const frame = doc.top;
    if (random.chance(0.3)) frame.base(random.pick(["sub/dir/", "/r/s/t", "http://example.com/base/", "https://u:p@example.org:81/p?q#f"]), "head");
    const chosen: [string, Reflected, readonly HyperlinkGetter[]][] = [];
    for (const href of hand.splice(0, perDocument)) {
      const r = random.chance(0.25) ? areaAnchor : anchor;
      chosen.push([urlElement(frame, r, href), r, hyperlinkGetters]);
    }
    for (let i = 0; i < 10; i++) {
      const r = random.chance(0.2) ? areaAnchor : anchor;
      chosen.push([urlElement(frame, r, randomHref(random)), r, ["href", "origin", ...random.sample(hyperlinkGetters.slice(2), 2)]]);
    }
    // No href attribute: href "", protocol ":", the rest "".
    if (random.chance(0.3)) chosen.push([urlElement(frame, anchor, null), anchor, hyperlinkGetters]);
    doc.doc(frame, "baseURI");
    for (const [id, r, getters] of chosen) readURL(doc, frame, id, r, getters);
    docs.push(doc.build("hrefs through the a/area getters"));
  }
  return docs;
};

/** Every URL-reflecting attribute, with one href on all of them, plus missing and empty attributes. */
const reflectCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  const variants = baseVariants.filter((v) => ["none", "relative", "absolute", "data-then-valid", "in-body", "root", "opaque", "non-special"].includes(v.name));
  for (let n = 0; n < 40; n++) {
    const encoding = n % 4 === 3 ? random.pick(encodingVariants) : utf8;
    const doc = make(encoding, random.pick(documentPaths));
    const frame = doc.top;
    const variant = random.pick(variants);
    const bases = applyBaseVariant(frame, variant);
    const href = n % 5 === 0 ? random.pick(["", " ", "#", "?", "x?ÿ#ÿ", "//[::1]/"]) : random.chance(0.5) ? random.pick(handHrefs) : randomHref(random);
    const elements: [string, Reflected][] = [];
    for (const r of reflectedAttributes) {
      if (!safeFor(r, href)) continue;
      elements.push([urlElement(frame, r, href), r]);
    }
    if (n % 2 === 0) {
      for (const r of reflectedAttributes) elements.push([urlElement(frame, r, null), r]);
    }
    if (n % 3 === 0) {
      for (const r of reflectedAttributes) elements.push([urlElement(frame, r, ""), r]);
    }
    bases.push(...applyBodyBases(frame, variant));
    doc.doc(frame, "baseURI");
    for (const id of bases) doc.get(frame, id, "href", "href", "base-href");
    for (const [id, r] of elements) readURL(doc, frame, id, r, r.kind === "hyperlink" ? ["href", "origin", "protocol", "host", "pathname", "search", "hash"] : ["href"]);
    docs.push(doc.build(`every reflected URL attribute with href ${JSON.stringify(href)}, base "${variant.name}"`));
  }
  return docs;
};

/** Our own setter cases: relative hrefs, failing hrefs, legacy encodings, each setter's corners. */
const ownSetterValues: Readonly<Record<HyperlinkSetter, readonly string[]>> = {
  href: ["x", "../y?ÿ", "http://[::1", "", " https://example.com/ "],
  protocol: ["https", "ftp:", "foo", "file", "HTTP", "ws", "", "a b", "javascript", "https:x", "mailto"],
  username: ["u", "ü", "a:b@c", "", "%40"],
  password: ["p", "ü", "a:b@c", "", "%40"],
  host: ["example.net", "example.net:81", "ü.de", "[::1]", "a b", "", "x:y", "1.2.3.4:0", "0x7f.1"],
  hostname: ["example.net", "example.net:81", "ü.de", "", "[::1]:2", "x/y", "x?y", "x#y"],
  port: ["81", "80", "", "0", "65536", "8a", "-1", "1\t2", " 3"],
  pathname: ["/p", "p", "../x", "\\x", "ü", "%2e", "a?b#c", ""],
  search: ["q", "?q", "ü", "ÿ", "a b", "", "?", "#"],
  hash: ["h", "#h", "ü", "a b", "", "#", "<>"],
};
const ownSetterHrefs: readonly string[] = [
  "x", "../dir/file?q#f", "http://example.com/p?q#f", "https://u:p@example.com:8443/p", "file:///C:/x", "file://host/x", "foo://h/p",
  "foo:opaque", "mailto:a@b", "javascript:void(0)", "data:,x", "http://[::1", "ws://example.com/", "http://ü.example/ü?ü#ü", "",
];

const setterCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  type SetterCase = { tag: "a" | "area"; href: string; prop: HyperlinkSetter; value: string; name: string };
  const cases: SetterCase[] = [];
  const wpt = parseSetterTestData(readWPTFile("setters_tests.json"), "setters_tests.json");
  const seen = new Map<string, number>();
  wpt.forEach((test) => {
    const n = (seen.get(test.attribute) ?? 0) + 1;
    seen.set(test.attribute, n);
    cases.push({ tag: "a", href: test.href, prop: test.attribute, value: test.new_value, name: `wpt-${test.attribute}-${n}` });
    if (n % 3 === 1) cases.push({ tag: "area", href: test.href, prop: test.attribute, value: test.new_value, name: `wpt-${test.attribute}-${n}-area` });
  });
  for (const [prop, values] of Object.entries(ownSetterValues) as [HyperlinkSetter, readonly string[]][]) {
    values.forEach((value, i) => {
      for (const href of random.sample(ownSetterHrefs, 3)) {
        cases.push({ tag: random.chance(0.3) ? "area" : "a", href, prop, value, name: `own-${prop}-${i}` });
      }
    });
  }
  const perDocument = 10;
  for (let n = 0; cases.length > 0; n++) {
    const encoding = n % 3 === 2 ? random.pick(encodingVariants) : utf8;
    const doc = make(encoding, random.pick(documentPaths));
    if (random.chance(0.3)) doc.top.base(random.pick(["sub/", "http://example.com/b/"]), "head");
    doc.doc(doc.top, "baseURI");
    for (const c of cases.splice(0, perDocument)) doc.set(doc.top, c.tag, c.href, c.prop, c.value, c.name);
    docs.push(doc.build(`setters (${encoding.label})`));
  }
  return docs;
};

/** Legacy-encoded documents: queries of special, ws/wss and non-special URLs, paths, fragments, hosts, the base's own query, setters. */
const encodingCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  for (const encoding of encodingVariants) {
    for (let copy = 0; copy < 6; copy++) {
      const doc = make(encoding, random.pick(documentPaths));
      const frame = doc.top;
      const characters = [...(encodingCharacters[encoding.name] ?? []), ...otherCharacters];
      const ch = (): string => random.pick(characters);
      const bases: string[] = [];
      if (copy % 3 === 1) {
        const id = frame.base(`${random.pick(["sub/", "http://example.com/", "/r/"])}?b=${ch()}`, "head");
        if (id !== null) bases.push(id);
      } else if (copy % 3 === 2) {
        const id = frame.base(random.pick(["foo://h/d/", "ws://example.com/d/", "file:///d/", "https://example.com/d/"]), "head");
        if (id !== null) bases.push(id);
      }
      const hrefs: string[] = [
        `?q=${ch()}`,
        `x?${ch()}${ch()}#${ch()}`,
        `${ch()}/${ch()}?${ch()}`,
        `http://example.com/${ch()}?${ch()}#${ch()}`,
        `https://${random.pick(["bücher.de", "日本.jp", "example.com"])}/?${ch()}`,
        `ftp://example.com/?${ch()}`,
        `file:///tmp/${ch()}?${ch()}`,
        `ws://example.com/?${ch()}`,
        `wss://example.com/?${ch()}`,
        `foo://example.com/?${ch()}`,
        `foo:${ch()}?${ch()}`,
        `mailto:${ch()}@example.com?subject=${ch()}`,
        `javascript:'${ch()}'`,
        `data:text/plain,${ch()}`,
        `//u${ch()}:p${ch()}@example.com/`,
        `?${ch()}%41&amp;${ch()}`,
        `?&#65533;${ch()}`,
        `#${ch()}?${ch()}`,
        `?${ch()}#${ch()}`,
        `web+x://h/?${ch()}`,
      ];
      const anchors: string[] = [];
      for (const href of hrefs) anchors.push(urlElement(frame, random.chance(0.2) ? areaAnchor : anchor, href));
      const others: [string, Reflected][] = [];
      for (const r of random.sample(reflectedAttributes.slice(2), 6)) {
        const href = random.pick(hrefs.slice(0, 10));
        if (safeFor(r, href)) others.push([urlElement(frame, r, href), r]);
      }
      doc.doc(frame, "baseURI");
      doc.doc(frame, "characterSet");
      for (const id of bases) doc.get(frame, id, "href", "href", "base-href");
      anchors.forEach((id, i) => {
        // Special schemes: every component; the others (UTF-8 queries, where browsers deviate) only href.
        const special = /^(?:https?|ftp|file):|^[^:]*$/.test(hrefs[i] as string);
        for (const g of special ? (["href", "search", "hash", "pathname", "username", "host"] as const) : (["href"] as const)) doc.get(frame, id, g, "href", "hyperlink");
      });
      for (const [id, r] of others) readURL(doc, frame, id, r);
      // Setters on the encoded document: search and hash are always UTF-8; href re-resolves with the document's encoding.
      doc.set(frame, "a", `http://example.com/?${ch()}`, "search", `${ch()}${ch()}`, "set-search");
      doc.set(frame, "a", "x", "search", `?${ch()}`, "set-search-relative");
      doc.set(frame, "a", "http://example.com/", "hash", ch(), "set-hash");
      doc.set(frame, "a", "http://example.com/", "pathname", ch(), "set-pathname");
      doc.set(frame, "a", "http://example.com/", "href", `?${ch()}`, "set-href");
      doc.set(frame, "a", "http://example.com/?x", "protocol", "foo", "set-protocol");
      doc.set(frame, "area", `?${ch()}`, "hash", "h", "set-hash-area");
      // Script-set href: the getter encodes the query with the document's encoding.
      const a = anchors[0] as string;
      doc.setHref(frame, a, `?${ch()}`);
      doc.get(frame, a, "href", "href", "hyperlink");
      doc.get(frame, a, "search", "href", "hyperlink");
      docs.push(doc.build(`legacy encoding ${encoding.name} (label ${encoding.label} by ${encoding.declaredBy})`));
    }
  }
  return docs;
};

/** Fill a frame with a few links and read them, with baseURI and URL. */
function frameLinks(doc: DocumentBuilder, frame: Frame, random: Random): () => void {
  const anchors: string[] = [];
  const n = 2 + random.int(2);
  for (let i = 0; i < n; i++) anchors.push(urlElement(frame, anchor, random.pick(["x", "../y", "/z", "?q=ü", "#f", "", "//h/", randomHref(random)])));
  const img = urlElement(frame, reflectedAttributes[3] as Reflected, random.pick(["i.png", "/i.png", "?ÿ"]));
  const form = urlElement(frame, reflectedAttributes[14] as Reflected, random.chance(0.5) ? null : "act");
  return () => {
    doc.doc(frame, "baseURI");
    doc.doc(frame, "URL");
    doc.doc(frame, "characterSet");
    for (const id of anchors) readURL(doc, frame, id, anchor, ["href", "origin", "search"]);
    readURL(doc, frame, img, reflectedAttributes[3] as Reflected);
    readURL(doc, frame, form, reflectedAttributes[14] as Reflected);
  };
}

/** about:blank and srcdoc iframes, nested, with bases before and after them, in every encoding. */
const framesCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  const parentBases = ["sub/", "/root/", "http://example.com/p/", "https://example.org/x/y?q#h", "data:,x", "//test:test", "foo://h/d/"];
  const childBases = ["c/", "/c/", "http://example.net/c/", "javascript:x", "", "?q"];
  const shapes = ["blank", "blank-src", "blank-src-query", "srcdoc", "srcdoc-base", "blank-base", "srcdoc>srcdoc", "srcdoc>blank", "blank>blank", "blank>srcdoc", "http>blank", "http>srcdoc", "srcdoc>srcdoc>srcdoc", "base-after-iframe", "srcdoc-in-legacy"] as const;
  for (let n = 0; n < 60; n++) {
    const shape = shapes[n % shapes.length] as (typeof shapes)[number];
    const encoding = shape === "srcdoc-in-legacy" || random.chance(0.2) ? random.pick(encodingVariants.slice(2)) : utf8;
    const doc = make(encoding, random.pick(documentPaths));
    const top = doc.top;
    const reads: (() => void)[] = [];
    if (shape !== "base-after-iframe" && random.chance(0.7)) {
      const id = top.base(random.pick(parentBases), "head");
      if (id !== null) reads.push(() => doc.get(top, id, "href", "href", "base-href"));
    }
    reads.push(frameLinks(doc, top, random));
    const inner = (frame: Frame, rest: readonly string[]): void => {
      const kind = rest[0];
      if (kind === undefined) return;
      const next = rest.slice(1);
      const withBase = (child: Frame): void => {
        if (random.chance(0.5)) {
          const id = child.base(random.pick(childBases), "head");
          if (id !== null) reads.push(() => doc.get(child, id, "href", "href", "base-href"));
        }
      };
      if (kind === "srcdoc") {
        frame.iframe("srcdoc", (child) => {
          withBase(child);
          reads.push(frameLinks(doc, child, random));
          inner(child, next);
        });
      } else if (kind === "blank") {
        frame.iframe("about:blank", (child) => {
          withBase(child);
          reads.push(frameLinks(doc, child, random));
          inner(child, next);
        });
      } else {
        frame.iframe(
          "http",
          (child) => {
            withBase(child);
            reads.push(frameLinks(doc, child, random));
            inner(child, next);
          },
          { encoding: random.pick(encodingVariants) },
        );
      }
    };
    switch (shape) {
      case "blank":
        inner(top, ["blank"]);
        break;
      case "blank-src":
      case "blank-src-query": {
        const child = top.iframe("about:blank", () => {}, { src: shape === "blank-src" ? "about:blank" : "about:blank?x#y" });
        reads.push(frameLinks(doc, child, random));
        break;
      }
      case "srcdoc":
        inner(top, ["srcdoc"]);
        break;
      case "srcdoc-base":
      case "blank-base": {
        const kind = shape === "srcdoc-base" ? "srcdoc" : "about:blank";
        const child = top.iframe(kind, (c) => {
          const id = c.base(random.pick(childBases), "head");
          if (id !== null) reads.push(() => doc.get(c, id, "href", "href", "base-href"));
          reads.push(frameLinks(doc, c, random));
        });
        void child;
        break;
      }
      case "base-after-iframe": {
        // The iframes are inserted before the parser reaches the base: their snapshot is the document's URL.
        inner(top, [random.pick(["srcdoc", "blank"])]);
        const id = top.base(random.pick(parentBases), "body");
        if (id !== null) reads.push(() => doc.get(top, id, "href", "href", "base-href"));
        inner(top, [random.pick(["srcdoc", "blank"])]);
        break;
      }
      case "srcdoc-in-legacy":
        inner(top, ["srcdoc"]);
        inner(top, ["blank"]);
        break;
      default:
        inner(top, shape.split(">").map((s) => s));
    }
    for (const read of reads) read();
    docs.push(doc.build(`frames: ${shape} (${encoding.label})`));
  }
  return docs;
};

/** Base changes at run time: getters follow at once; about:blank and srcdoc snapshots do not. */
const dynamicCategory: CategoryGenerator = (random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  const scenarios = [
    "set-href",
    "remove-href",
    "remove-base",
    "prepend-base",
    "append-base",
    "base-href-setter",
    "prepend-data-base",
    "prepend-javascript-base",
    "set-a-href",
    "snapshot-blank",
    "snapshot-srcdoc",
    "new-frame-after-change",
    "detached-frame",
    "base-in-blank-frame",
  ] as const;
  for (let n = 0; n < 42; n++) {
    const scenario = scenarios[n % scenarios.length] as (typeof scenarios)[number];
    const encoding = random.chance(0.25) ? random.pick(encodingVariants) : utf8;
    const doc = make(encoding, random.pick(documentPaths));
    const top = doc.top;
    const baseHref = random.pick(["sub/", "/r/", "http://example.com/a/", ""]);
    const base = top.base(baseHref, "head") as string;
    const elements: [string, Reflected][] = [];
    for (const r of random.sample(reflectedAttributes, 6)) {
      const href = random.pick(["test.txt", "../t?ÿ", "/abs", "#h", "?q", "//h/p", ""]);
      elements.push([urlElement(top, r, href), r]);
    }
    const readAll = (): void => {
      doc.doc(top, "baseURI");
      if (top.elements.has(base)) doc.get(top, base, "href", "href", "base-href");
      for (const [id, r] of elements) readURL(doc, top, id, r, ["href", "pathname"]);
    };
    let child: Frame | null = null;
    const childReads: (() => void)[] = [];
    if (scenario === "snapshot-blank" || scenario === "snapshot-srcdoc" || scenario === "detached-frame" || scenario === "new-frame-after-change") {
      child = top.iframe(scenario === "snapshot-srcdoc" ? "srcdoc" : "about:blank", (c) => childReads.push(frameLinks(doc, c, random)));
    }
    readAll();
    for (const r of childReads) r();
    const newHref = random.pick(["http://example.org/new/", "other/", "/o/", "https://h:1/x?y#z", "foo://h/p"]);
    switch (scenario) {
      case "set-href":
        doc.setAttr(top, base, "href", newHref);
        break;
      case "remove-href":
        doc.removeAttr(top, base, "href");
        break;
      case "remove-base":
        doc.remove(top, base);
        break;
      case "prepend-base":
        doc.insertBase(top, newHref, "head-start");
        break;
      case "append-base":
        doc.insertBase(top, newHref, "body-end");
        break;
      case "base-href-setter":
        doc.setHref(top, base, newHref);
        break;
      case "prepend-data-base":
        doc.insertBase(top, "data:/,more-test", "head-start");
        break;
      case "prepend-javascript-base":
        doc.insertBase(top, "javascript:/,more-test", "head-start");
        break;
      case "set-a-href": {
        const [id] = elements[0] as [string, Reflected];
        doc.setAttr(top, id, (elements[0] as [string, Reflected])[1].attr, random.pick(["changed", "?ÿ", "http://x/"]));
        break;
      }
      case "snapshot-blank":
      case "snapshot-srcdoc":
        doc.setAttr(top, base, "href", newHref);
        break;
      case "new-frame-after-change": {
        doc.setAttr(top, base, "href", newHref);
        const fresh = doc.insertIframe(top, random.chance(0.5) ? "srcdoc" : "about:blank", (c) => {
          const reader = frameLinks(doc, c, random);
          childReads.push(reader);
        });
        void fresh;
        break;
      }
      case "detached-frame": {
        const frame = child as Frame;
        doc.hold(frame, "held");
        doc.insertBase(top, newHref, "head-start");
        const iframeId = frame.path[frame.path.length - 1] as string;
        doc.remove(top, iframeId);
        doc.doc(frame, "baseURI", "detached.baseURI", ["@held"]);
        childReads.length = 0;
        break;
      }
      case "base-in-blank-frame": {
        const blank = doc.insertIframe(top, "about:blank", () => {});
        const id = doc.insertBase(blank, random.pick(["sub/", "/s/", "x?ÿ"]), "head-start");
        doc.get(blank, id, "href", "href", "base-href");
        doc.doc(blank, "baseURI");
        break;
      }
    }
    readAll();
    for (const r of childReads) r();
    docs.push(doc.build(`dynamic base change: ${scenario} (${encoding.label})`));
  }
  return docs;
};

/** The WPT URL parsing data through `<a href>`, the base set per case on `<base>` (as wpt's url/a-element.html does). */
const urltestdataCategory: CategoryGenerator = (_random, _origin, make) => {
  const docs: GeneratedDocument[] = [];
  const cases = parseURLTestData(readWPTFile("urltestdata.json"), "urltestdata.json");
  const perDocument = 25;
  let index = 0;
  for (let n = 0; index < cases.length; n++) {
    const doc = make(utf8, "page.html");
    const top = doc.top;
    const base = top.base(null, "head") as string;
    const a = urlElement(top, anchor, null);
    for (const c of cases.slice(index, index + perDocument)) {
      index += 1;
      doc.setAttr(top, base, "href", c.base ?? "about:blank");
      doc.setAttr(top, a, "href", c.input);
      doc.get(top, a, "href", "href", "hyperlink");
    }
    docs.push(doc.build(`urltestdata.json cases ${index - perDocument + 1}–${index}`));
  }
  return docs;
};

export const categories: Readonly<Record<string, CategoryGenerator>> = {
  base: baseCategory,
  href: hrefCategory,
  reflect: reflectCategory,
  setter: setterCategory,
  encoding: encodingCategory,
  frames: framesCategory,
  dynamic: dynamicCategory,
  urltestdata: urltestdataCategory,
};

/** Generates the suite: the same documents for the same seed and origin. */
export function generateSuite(options: SuiteOptions): Suite {
  const seed = options.seed ?? defaultSeed;
  const documents: GeneratedDocument[] = [];
  for (const [name, generator] of Object.entries(categories)) {
    if (options.categories !== undefined && !options.categories.includes(name)) continue;
    const random = new Random(`${seed}:${name}`);
    let counter = 0;
    const make = (encoding: EncodingVariant = utf8, path = "page.html"): DocumentBuilder => {
      counter += 1;
      return new DocumentBuilder(`${name}-${String(counter).padStart(3, "0")}`, name, options.origin, path, encoding);
    };
    documents.push(...generator(random, options.origin, make));
  }
  return { seed, origin: options.origin, documents };
}

/** The resolved URL a nested http iframe's src names (for checks). */
export function resolveAgainst(input: string, base: string): string | null {
  return referenceResolve(input, base, "UTF-8");
}
