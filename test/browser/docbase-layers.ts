/**
 * docbase's side of the differential suite: one small implementation of
 * {@link DocbaseLayer} per layer, each answering the reads it can.
 *
 * - `core` (URL level): each value from `parseURL`/`serializeURL` and the
 *   `URL` class, given the attribute, document base URL, document URL and
 *   encoding *as Chromium reports them*. It checks the URL parser, not the
 *   document's base.
 * - `links`: `extractLinks` on the served bytes (reads of elements as
 *   served: the document and its srcdoc documents, and nested http
 *   documents).
 * - `parse5`: document-base + url-utils over a parse5 tree of the served
 *   document (reads of elements as served, `document.baseURI`), srcdoc
 *   documents with their container as about base URL source.
 * - `dom`: document-base + url-utils over jsdom's DOM (used as a plain DOM,
 *   nothing installed), observed with MutationObserver: every read of the
 *   top document, through its mutations, and every setter.
 * - `jsdom`: `install(window)` from src/jsdom (issue 6), then the DOM's own
 *   getters, exactly as in the browser. Unavailable until src/jsdom lands.
 *
 * Adding a layer: implement {@link DocbaseLayer} (a name, a level, and
 * `run`, which returns case id → value) and add it to {@link docbaseLayers}.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { JSDOM } from "jsdom";
import { parse as parse5Parse, type DefaultTreeAdapterTypes } from "parse5";
import { URL as DocbaseURL, parseURL, serializeURL } from "../../src/core/index.ts";
import {
  createDocumentContext,
  documentBaseURL,
  domTreeAdapter,
  parse5TreeAdapter,
  type DocumentContext,
  type DOMDocument,
  type DOMTreeAdapterMap,
  type Parse5TreeAdapterMap,
  frameCreationBaseURL,
} from "../../src/document-base/index.ts";
import { extractLinks, type Link } from "../../src/links/index.ts";
import {
  getHyperlinkAttribute,
  getReflectedURL,
  setHyperlinkAttribute,
  type HyperlinkAttributeName,
  type ReflectedURLAttributeName,
} from "../../src/url-utils/index.ts";
import type { FrameInfo, GeneratedDocument, GetAction, HyperlinkGetter, Observation, ReadAction, SetAction } from "./cases.ts";
import { decodeDocument } from "./encode-document.ts";
import { linkKeys, type Suite } from "./generate.ts";
import { evaluatePrograms, type DocumentProgram, type MiniDocument, type MiniElement, type MiniWindow, type ReadHooks } from "./probe-evaluator.ts";

/**
 * What a layer gets: the suite, and Chromium's observations once Chromium
 * is done (the URL-level layer reads the document context from them).
 * (A promise, so that a layer needing none could run beside the browser.)
 */
export interface LayerInput {
  readonly suite: Suite;
  readonly observations: Promise<ReadonlyMap<string, Observation>>;
}

/** A layer's answers: case id → value, for the reads it answers. */
export type LayerAnswers = ReadonlyMap<string, string | null>;

export interface DocbaseLayer {
  readonly name: string;
  readonly description: string;
  /**
   * `url`: compared with the standard's answer for the same inputs Chromium
   * had (its document base URL and encoding); `document`: compared with the
   * standard's answer for the whole document (the generator's model).
   */
  readonly level: "url" | "document";
  /** The answers, or why the layer cannot run (it has not landed). */
  run(input: LayerInput): Promise<LayerAnswers | { readonly unavailable: string }>;
}

const repoRoot = resolve(import.meta.dirname, "../..");

function readsOf(document: GeneratedDocument): ReadAction[] {
  return document.actions.filter((a): a is ReadAction => a.t === "get" || a.t === "doc" || a.t === "set");
}

function frameOf(document: GeneratedDocument, path: readonly string[]): FrameInfo | undefined {
  return document.frames.find((f) => f.path.length === path.length && f.path.every((p, i) => p === path[i]));
}

// ---------------------------------------------------------------------------
// core: the URL level.

/** The 11 HTMLHyperlinkElementUtils getters of a URL string (already serialized), through docbase's URL class. */
function hyperlinkGetterOfURL(prop: HyperlinkGetter, href: string): string {
  const url = new DocbaseURL(href);
  return url[prop];
}

function coreReflect(attr: string | null, base: string, encoding: string): string {
  if (attr === null) return "";
  const record = parseURL(attr, { base, encoding });
  return record === null ? attr.toWellFormed() : serializeURL(record);
}

function coreGet(action: GetAction, o: Observation, frame: FrameInfo | undefined): string | undefined {
  const attr = o.a ?? null;
  const base = o.b;
  const encoding = o.c;
  const url = o.u;
  if (base === undefined || encoding === undefined || url === undefined) return undefined;
  switch (action.kind) {
    case "reflect":
      return coreReflect(attr, base, encoding);
    case "document-url-if-empty":
      return attr === null || attr === "" ? url : coreReflect(attr, base, encoding);
    case "hyperlink": {
      const record = attr === null ? null : parseURL(attr, { base, encoding });
      if (record === null) return action.prop === "href" ? (attr ?? "").toWellFormed() : action.prop === "protocol" ? ":" : "";
      return hyperlinkGetterOfURL(action.prop as HyperlinkGetter, serializeURL(record));
    }
    case "base-href": {
      // The fallback base URL of a document with an http URL is that URL; others (about:blank, srcdoc) are document-level.
      if (frame?.kind !== "http") return undefined;
      const value = attr ?? "";
      const record = parseURL(value, { base: url, encoding });
      return record === null ? value : serializeURL(record);
    }
  }
}

function coreSet(action: SetAction, o: Observation): string | undefined {
  const base = o.b;
  const encoding = o.c;
  if (base === undefined || encoding === undefined) return undefined;
  if (action.prop === "href") return coreReflect(action.value, base, encoding);
  const record = parseURL(action.href, { base, encoding });
  // The element's url is null: every setter does nothing.
  if (record === null) return action.href.toWellFormed();
  const url = new DocbaseURL(serializeURL(record));
  url[action.prop] = action.value;
  // "Update href", then the getter parses the attribute again with the document's encoding.
  return coreReflect(url.href, base, encoding);
}

export const coreLayer: DocbaseLayer = {
  name: "core",
  description: "src/core (parseURL, serializeURL, URL) given the attribute, base URL and encoding Chromium reports",
  level: "url",
  async run({ suite, observations: pending }) {
    const observations = await pending;
    const out = new Map<string, string | null>();
    for (const document of suite.documents) {
      for (const action of readsOf(document)) {
        const o = observations.get(action.id);
        if (o === undefined || o.err !== undefined) continue;
        let value: string | undefined;
        if (action.t === "get") value = coreGet(action, o, frameOf(document, action.f));
        else if (action.t === "set") value = coreSet(action, o);
        if (value !== undefined) out.set(action.id, value);
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------------------
// links: extractLinks on the served bytes.

function linkKey(srcdoc: number, element: string, attribute: string, value: string): string {
  return `${srcdoc}\u0000${element}\u0000${attribute}\u0000${value}`;
}

export const linksLayer: DocbaseLayer = {
  name: "links",
  description: "src/links extractLinks on each served document's bytes (elements as served, srcdoc documents included)",
  level: "document",
  async run({ suite, observations: pending }) {
    const out = new Map<string, string | null>();
    const unparsed: [string, Link][] = [];
    for (const document of suite.documents) {
      const keys = linkKeys.get(document);
      if (keys === undefined || keys.size === 0) continue;
      const byResource = new Map<string, Map<string, Link[]>>();
      for (const frame of document.frames) {
        if (frame.servedPath === undefined) continue;
        const resource = document.resources.find((r) => r.path === frame.servedPath);
        if (resource === undefined) continue;
        // An encoding from Content-Type overrides sniffing, as in a browser; a meta-declared one is sniffed.
        const label = /charset=([^;]+)/.exec(resource.contentType)?.[1];
        const links = extractLinks(resource.body, { url: frame.url, ...(label === undefined ? {} : { encoding: label }) });
        const index = new Map<string, Link[]>();
        for (const link of links) {
          if (link.template || link.namespace !== "html" || link.attribute === null) continue;
          const key = linkKey(link.srcdoc, link.element, link.attribute, link.value);
          let list = index.get(key);
          if (list === undefined) index.set(key, (list = []));
          list.push(link);
        }
        byResource.set(frame.servedPath, index);
      }
      for (const [id, key] of keys) {
        const link = byResource.get(key.resource)?.get(linkKey(key.srcdoc, key.element, key.attribute, key.value))?.[key.occurrence];
        if (link === undefined) {
          out.set(id, "<no link extracted>");
          continue;
        }
        if (link.url === null) unparsed.push([id, link]);
        else out.set(id, link.url);
      }
      await Promise.resolve();
    }
    // A URL that does not parse: the getter returns the attribute as it is (link values are trimmed; Chromium saw the attribute).
    const observations = await pending;
    for (const [id, link] of unparsed) out.set(id, observations.get(id)?.a ?? link.value);
    return out;
  },
};

// ---------------------------------------------------------------------------
// document-base + url-utils over a parse5 tree.

type P5Element = DefaultTreeAdapterTypes.Element;
type P5Node = DefaultTreeAdapterTypes.Node;

function indexById(root: P5Node, into: Map<string, P5Element>): void {
  if ("attrs" in root) {
    const id = root.attrs.find((a) => a.name === "id" && a.namespace === undefined)?.value;
    if (id !== undefined && !into.has(id)) into.set(id, root);
  }
  if ("childNodes" in root) for (const child of root.childNodes) indexById(child, into);
}

/** A getter through url-utils (the IDL attribute's name is the action's prop). */
function urlUtilsGet<T extends Parse5TreeAdapterMap | DOMTreeAdapterMap>(context: DocumentContext<T>, element: T["element"], action: GetAction): string {
  if (action.kind === "hyperlink") return getHyperlinkAttribute(context, element, action.prop as HyperlinkAttributeName);
  return getReflectedURL(context, element, action.prop as ReflectedURLAttributeName);
}

export const parse5Layer: DocbaseLayer = {
  name: "parse5",
  description: "src/document-base + src/url-utils over parse5 trees of the served documents (srcdoc documents included)",
  level: "document",
  async run({ suite }) {
    const out = new Map<string, string | null>();
    for (const document of suite.documents) {
      const trees = new Map<string, { context: DocumentContext<Parse5TreeAdapterMap>; ids: Map<string, P5Element> }>();
      const pathKey = (path: readonly string[]): string => path.join("/");
      for (const frame of document.frames) {
        let text: string | undefined;
        let context: DocumentContext<Parse5TreeAdapterMap> | undefined;
        if (frame.kind === "http") {
          const resource = document.resources.find((r) => r.path === frame.servedPath);
          if (resource === undefined) continue;
          text = decodeDocument(resource.body, frame.encoding);
          const tree = parse5Parse(text);
          context = createDocumentContext(parse5TreeAdapter, tree, { url: frame.url, encoding: frame.encoding });
          const ids = new Map<string, P5Element>();
          indexById(tree, ids);
          trees.set(pathKey(frame.path), { context, ids });
        } else if (frame.kind === "srcdoc" && frame.parent !== null) {
          const parent = trees.get(pathKey(frame.parent));
          const iframe = parent?.ids.get(frame.path[frame.path.length - 1] as string);
          const srcdoc = iframe?.attrs.find((a) => a.name === "srcdoc")?.value;
          if (parent === undefined || srcdoc === undefined) continue;
          const tree = parse5Parse(srcdoc);
          // The about base URL: the container's base URL when the parser created the iframe.
          const aboutBaseURL = frameCreationBaseURL(parent.context, iframe!);
          context = createDocumentContext(parse5TreeAdapter, tree, { url: "about:srcdoc", encoding: "UTF-8", aboutBaseURL });
          const ids = new Map<string, P5Element>();
          indexById(tree, ids);
          trees.set(pathKey(frame.path), { context, ids });
        }
      }
      for (const action of readsOf(document)) {
        if (action.t === "set" || !action.static) continue;
        const frame = trees.get(pathKey(action.f));
        if (frame === undefined) continue;
        if (action.t === "doc") {
          if (action.what === "baseURI") out.set(action.id, serializeURL(documentBaseURL(frame.context)));
          continue;
        }
        const element = frame.ids.get(action.el);
        if (element === undefined) continue;
        out.set(action.id, urlUtilsGet(frame.context, element, action));
      }
      await Promise.resolve();
    }
    return out;
  },
};

// ---------------------------------------------------------------------------
// document-base + url-utils over jsdom's DOM (nothing installed), observed.

/**
 * The document's program for a jsdom window: the top document's actions
 * only (`frames: false`), or those of every frame but nested http documents,
 * which jsdom does not load (`frames: true`). No waiting for iframe loads:
 * the insertion still yields to microtasks, where MutationObserver records
 * arrive.
 */
function jsdomProgram(document: GeneratedDocument, frames: boolean): DocumentProgram {
  const viaHTTP = (path: readonly string[]): boolean => {
    for (let i = 1; i <= path.length; i++) if (frameOf(document, path.slice(0, i))?.kind === "http") return true;
    return false;
  };
  return {
    id: document.id,
    root: [],
    actions: document.actions
      .filter((a) => (frames ? !viaHTTP(a.f.filter((p) => !p.startsWith("@"))) : a.f.length === 0))
      .map((a) => {
        if (a.t !== "insert" || a.load === undefined) return a;
        const { load: _load, ...rest } = a;
        return rest;
      }),
  };
}

function jsdomOf(document: GeneratedDocument, beforeParse?: (window: JSDOM["window"]) => void): JSDOM {
  const resource = document.resources[0];
  if (resource === undefined) throw new Error(`${document.id}: nothing served`);
  const url = document.frames[0]?.url as string;
  // Scripting on, as in the browser (it decides how <noscript> parses); the documents have no scripts to run.
  return new JSDOM(resource.body, { url, contentType: resource.contentType, runScripts: "dangerously", ...(beforeParse === undefined ? {} : { beforeParse }) });
}

export const domLayer: DocbaseLayer = {
  name: "dom",
  description: "src/document-base + src/url-utils over jsdom's DOM (observed with MutationObserver): the top document, mutations and setters",
  level: "document",
  async run({ suite }) {
    const out = new Map<string, string | null>();
    for (const document of suite.documents) {
      const dom = jsdomOf(document);
      const window = dom.window;
      const context = createDocumentContext(domTreeAdapter, window.document as unknown as DOMDocument, { observe: true });
      const hooks: ReadHooks = {
        get(_doc, element, action) {
          return { v: urlUtilsGet(context, element as unknown as DOMTreeAdapterMap["element"], action) };
        },
        doc(_doc, action) {
          return action.what === "baseURI" ? { v: serializeURL(documentBaseURL(context)) } : undefined;
        },
        set(doc: MiniDocument, action) {
          const element: MiniElement = doc.createElement(action.tag);
          element.setAttribute("href", action.href);
          const el = element as unknown as DOMTreeAdapterMap["element"];
          setHyperlinkAttribute(context, el, action.prop, action.value);
          return { v: getHyperlinkAttribute(context, el, "href") };
        },
      };
      try {
        const result = await evaluatePrograms(window as unknown as MiniWindow, [jsdomProgram(document, false)], hooks);
        for (const [id, o] of Object.entries(result)) out.set(id, o.err === undefined ? o.v : `<error: ${o.err}>`);
      } finally {
        context.dispose();
        window.close();
      }
    }
    return out;
  },
};

// ---------------------------------------------------------------------------
// jsdom + install (issue 6): the DOM's own getters, wired by docbase.

/** The shape this suite needs from src/jsdom (ARCHITECTURE.md: `install(window, options?)` returns a handle with `uninstall()`). */
interface JsdomIntegration {
  install(window: unknown, options?: Record<string, unknown>): { uninstall(): void };
}

export const jsdomLayer: DocbaseLayer = {
  name: "jsdom",
  description: "src/jsdom install(window) in a JSDOM's beforeParse, then the DOM's own getters and setters: the document and its about:blank and srcdoc frames",
  level: "document",
  async run({ suite }) {
    const path = resolve(repoRoot, "src/jsdom/index.ts");
    if (!existsSync(path)) return { unavailable: "src/jsdom/index.ts does not exist yet (issue 6)" };
    const integration = (await import(path)) as Partial<JsdomIntegration>;
    const install = integration.install;
    if (typeof install !== "function") return { unavailable: "src/jsdom does not export install() yet" };
    const out = new Map<string, string | null>();
    for (const document of suite.documents) {
      let handle: { uninstall(): void } | undefined;
      const dom = jsdomOf(document, (window) => {
        handle = install(window);
      });
      try {
        const result = await evaluatePrograms(dom.window as unknown as MiniWindow, [jsdomProgram(document, true)]);
        for (const [id, o] of Object.entries(result)) out.set(id, o.err === undefined ? o.v : `<error: ${o.err}>`);
      } finally {
        handle?.uninstall();
        dom.window.close();
      }
    }
    return out;
  },
};

/** Every layer, lowest first. */
export const docbaseLayers: readonly DocbaseLayer[] = [coreLayer, linksLayer, parse5Layer, domLayer, jsdomLayer];
