/**
 * Ready-made rewrites for {@link rewriteLinks}: absolutize, relativize
 * (shortest, or portable within a site root), rebase and mapURLs, each limited to
 * the links a filter selects. Each returns a `rewrite` function.
 *
 * @module
 */

import { basicURLParse, serializeURL, type URLRecord } from "../core/index.ts";
import { LinksError } from "./errors.ts";
import type { Link } from "./link-types.ts";
import { lookUpURL, type URLMap } from "./url-maps.ts";
import { portableReference, referenceForm, referenceInFormOf, relativeReference } from "./url-references.ts";

export { relativeReference } from "./url-references.ts";

/**
 * Which links a ready-made rewrite may change (see `linkFilter`); every
 * link when absent.
 *
 * @example
 * ```ts
 * const options: RewriteFilterOption = { filter: linkFilter({ only: "resources" }) };
 * ```
 */
export interface RewriteFilterOption {
  readonly filter?: ((link: Link) => boolean) | undefined;
}

/** Whether a rewrite may touch this link: not a missing form action, and resolved. */
function rewritable(link: Link): link is Link & { url: string } {
  return link.missing !== true && link.url !== null;
}

/**
 * Whether `link` is an empty form action: it means the form's document
 * URL ("If action is the empty string, let action be the URL of the form
 * document", https://html.spec.whatwg.org/multipage/form-control-infrastructure.html#form-submission-algorithm),
 * wherever the document is; a new non-empty value would be read against
 * the document base URL instead, which `link.base` does not give for it.
 */
function isEmptyAction(link: Link): boolean {
  return link.value === "" && link.namespace === "html" && (link.attribute === "action" || link.attribute === "formaction");
}

/** Whether `link` is a `<base href>`: its URL is the base every later link reads. */
function isBaseHref(link: Link): boolean {
  return link.namespace === "html" && link.element === "base" && link.attribute === "href";
}

/**
 * Whether `link` may become "" (the base URL itself): only a hyperlink's
 * "" is the same URL (https://html.spec.whatwg.org/multipage/links.html#following-hyperlinks
 * parses its href against the document base URL); elsewhere "" means no
 * resource, about:blank, or the form's document URL.
 */
function mayBeEmpty(link: Link): boolean {
  return link.namespace === "html" && link.attribute === "href" && (link.element === "a" || link.element === "area");
}

/**
 * A rewrite that replaces every URL by its resolved, absolute form (what
 * `link.url` says), so that the document can move without its links
 * changing meaning. URLs that do not parse, forms without an action, and
 * links the `filter` leaves out are left alone.
 *
 * @example
 * ```ts
 * rewriteLinks('<base href="/docs/"><a href="intro">', { url: "https://example.com/", rewrite: absolutize() });
 * // '<base href="https://example.com/docs/"><a href="https://example.com/docs/intro">'
 * ```
 */
export function absolutize(options: RewriteFilterOption = {}): (link: Link) => string | undefined {
  const filter = options.filter;
  return (link) => (rewritable(link) && (filter === undefined || filter(link)) ? link.url : undefined);
}

/**
 * Options of {@link relativize}. With `root`, the rewrite is portable
 * (see there); without it, each link gets its shortest reference.
 *
 * @example
 * ```ts
 * const options: RelativizeOptions = { root: "https://example.com/", indexFile: "index.html" };
 * ```
 */
export interface RelativizeOptions extends RewriteFilterOption {
  /** The site's root URL (ending in "/"): links into it become document-relative paths. */
  readonly root?: string | undefined;
  /**
   * For browsing from disk (as `wget --convert-links`): a link into the
   * site that names a directory (`docs/`) names this file in it
   * (`docs/index.html`). Only with `root`.
   */
  readonly indexFile?: string | undefined;
  /**
   * Called for each link into the site that cannot be made portable: it
   * is read against a `<base>` outside the site (it keeps, or is given,
   * its absolute URL).
   */
  readonly onNotPortable?: ((link: Link) => void) | undefined;
}

/**
 * Two rewrites in one:
 *
 * - `relativize()`, the shortest: every URL becomes the shortest
 *   reference that resolves back to it against the base it is read
 *   against (the document base URL; for `<base href>`, the fallback base
 *   URL; in a srcdoc document, that document's base URL) — which may be
 *   root-relative (`/blog/`) or scheme-relative (`//cdn.example.net/`).
 *   A link already as short is left alone.
 * - `relativize({ root })`, the portable one: every link into the site
 *   under `root` becomes a document-relative path (`../blog/post-2.html`,
 *   never `/blog/…` nor `//example.com/…`), so that the site works from
 *   any other root, from a sub-path, and from disk; a link elsewhere
 *   keeps, or is given, its absolute URL; a `<base href>` into the site
 *   becomes relative too (whatever the filter), and every link reads
 *   through it as before. A relative link that already resolves right
 *   is left alone. A link into the site read against a `<base>` outside
 *   it cannot be portable: it keeps its absolute URL (see
 *   `onNotPortable`). With `indexFile`, a link to a directory names its
 *   index file.
 *
 * `itemtype` URLs (which must be absolute), URLs that do not parse,
 * missing form actions and links the `filter` leaves out are left alone.
 * Only an `<a>` or `<area>` href may become "" (the base URL itself);
 * every other link gets a non-empty reference (see
 * {@link relativeReference}).
 *
 * @example
 * ```ts
 * rewriteLinks('<a href="https://example.com/docs/a.html#top">', {
 *   url: "https://example.com/docs/index.html",
 *   rewrite: relativize(),
 * });
 * // '<a href="a.html#top">'
 * rewriteLinks('<a href="/blog/post-2.html"><a href="//github.com/x"><a href="/docs/">', {
 *   url: "https://example.com/docs/intro.html",
 *   rewrite: relativize({ root: "https://example.com/", indexFile: "index.html" }),
 * });
 * // '<a href="../blog/post-2.html"><a href="https://github.com/x"><a href="index.html">'
 * ```
 */
export function relativize(options: RelativizeOptions = {}): (link: Link) => string | undefined {
  const filter = options.filter;
  if (options.root === undefined) {
    if (options.indexFile !== undefined) throw new LinksError('relativize: "indexFile" needs "root" (the site whose links name their index files)');
    return (link) => {
      if (!rewritable(link) || link.base === null || isEmptyAction(link) || (filter !== undefined && !filter(link))) return undefined;
      const reference = relativeReference(link.url, link.base, { nonEmpty: !mayBeEmpty(link) });
      // A link whose own text is no longer already is as short as it gets.
      return reference.length < link.value.length ? reference : undefined;
    };
  }
  return portable(options.root, options);
}

/** The root URL of a site, serialized: absolute, hierarchical, ending in "/", without query or fragment. */
function siteRoot(root: string, what: string): string {
  const url = basicURLParse(root);
  if (url === null || url.opaquePath || url.query !== null || url.fragment !== null || !url.path.endsWith("/")) {
    throw new LinksError(`${what}: the site's root is an absolute URL whose path ends in "/", without query or fragment: ${JSON.stringify(root)}`);
  }
  return serializeURL(url);
}

/** `href` with `indexFile` after its path, when the path names a directory. */
function withIndexFile(href: string, indexFile: string): string {
  const url = basicURLParse(href)!;
  if (!url.path.endsWith("/")) return href;
  return serializeURL({ ...url, path: url.path + indexFile });
}

/** The portable rewrite of {@link relativize}. */
function portable(root: string, options: RelativizeOptions): (link: Link) => string | undefined {
  const rootHref = siteRoot(root, "relativize");
  const { filter, indexFile, onNotPortable } = options;
  if (indexFile !== undefined && (indexFile === "" || /[/\\?#]/.test(indexFile))) {
    throw new LinksError(`relativize: "indexFile" is a file name (no "/", "\\", "?" or "#"): ${JSON.stringify(indexFile)}`);
  }
  const inSite = (href: string): boolean => href.startsWith(rootHref);
  // The site served elsewhere, at a root no reference names: a reference that resolves right there and here does
  // not depend on where the root is (one that climbs above the root and back, `../site/`, does).
  const probeRoot = "https://docbase-portable.invalid/docbase-probe-1/docbase-probe-2/";
  const elsewhere = (href: string): string => probeRoot + href.slice(rootHref.length);
  const resolvesTo = (value: string, base: URLRecord, target: string, encoding: Link["encoding"]): boolean => {
    const url = basicURLParse(value, { base, encoding });
    return url !== null && serializeURL(url) === target;
  };
  // Optimisation: a page's links share one or two bases; the last one is parsed once, here and elsewhere.
  let lastBase = "";
  let baseHere = null as unknown as URLRecord;
  let baseElsewhere = null as unknown as URLRecord;
  const parseBase = (base: string): void => {
    if (base === lastBase) return;
    baseHere = basicURLParse(base)!;
    baseElsewhere = inSite(base) ? basicURLParse(elsewhere(base))! : baseHere;
    lastBase = base;
  };
  const portableValue = (value: string, target: string, encoding: Link["encoding"]): boolean =>
    resolvesTo(value, baseHere, target, encoding) && resolvesTo(value, baseElsewhere, elsewhere(target), encoding);
  return (link) => {
    // An empty action is portable as it is: the document's own URL.
    if (!rewritable(link) || link.base === null || isEmptyAction(link)) return undefined;
    // The base is made portable whatever the filter: every selected link reads through it.
    if (filter !== undefined && !isBaseHref(link) && !filter(link)) return undefined;
    const base = link.base;
    parseBase(base);
    const form = referenceForm(link.value, baseHere.scheme);
    if (!inSite(link.url)) {
      // Another place: an absolute URL, never root- or scheme-relative; a relative link read against a base outside the site stays as it is.
      return form === "absolute" || !inSite(base) ? undefined : link.url;
    }
    if (!inSite(base)) {
      onNotPortable?.(link);
      return form === "absolute" ? undefined : link.url;
    }
    const target = indexFile === undefined ? link.url : withIndexFile(link.url, indexFile);
    if (form === "path-relative" && portableValue(link.value, target, link.encoding)) return undefined;
    const reference = portableReference(target, base, { nonEmpty: !mayBeEmpty(link) });
    return reference !== null && portableValue(reference, target, link.encoding) ? reference : target;
  };
}

/**
 * A rewrite for a site that moves from URL prefix `from` to `to` (both
 * absolute, e.g. "https://old.example/docs/" → "https://new.example/v2/"):
 * every link that points into `from` is made to point to the same place
 * under `to`, `<base href>` included, and every link that points outside
 * keeps pointing where it did, as seen from the moved document (the `url`
 * option is the document's old URL). A link whose text already resolves
 * right from the new place is left alone; one that needs changing keeps
 * its form: an absolute URL becomes the new absolute URL, a relative
 * reference the shortest reference from the new base.
 *
 * With a `filter`, only the links it selects move, and the documents
 * stay where they are (a CDN for a site's resources: `filter:
 * linkFilter({ only: "resources" })`): each selected link into `from`
 * points under `to`, written in its own form where it can be (a relative
 * reference to another origin becomes absolute), and no `<base href>`
 * changes.
 *
 * @example
 * ```ts
 * rewriteLinks('<base href="https://old.example/docs/"><a href="a.html"><a href="/docs/b.html">', {
 *   url: "https://old.example/docs/index.html",
 *   rewrite: rebase("https://old.example/docs/", "https://new.example/v2/"),
 * });
 * // '<base href="https://new.example/v2/"><a href="a.html"><a href="b.html">'
 * rewriteLinks('<img src="img/a.png"><a href="b.html">', {
 *   url: "https://example.com/",
 *   rewrite: rebase("https://example.com/", "https://cdn.example.net/", { filter: linkFilter({ only: "resources" }) }),
 * });
 * // '<img src="https://cdn.example.net/img/a.png"><a href="b.html">'
 * ```
 */
export function rebase(from: string, to: string, options: RewriteFilterOption = {}): (link: Link) => string | undefined {
  const fromURL = basicURLParse(from);
  const toURL = basicURLParse(to);
  if (fromURL === null) throw new LinksError(`rebase: "from" is not an absolute URL: ${JSON.stringify(from)}`);
  if (toURL === null) throw new LinksError(`rebase: "to" is not an absolute URL: ${JSON.stringify(to)}`);
  const fromHref = serializeURL(fromURL);
  const toHref = serializeURL(toURL);
  const move = (href: string): string => (href.startsWith(fromHref) ? toHref + href.slice(fromHref.length) : href);
  const filter = options.filter;
  if (filter !== undefined) {
    return (link) => {
      if (!rewritable(link) || isBaseHref(link) || !filter(link)) return undefined;
      const target = move(link.url);
      if (target === link.url) return undefined;
      if (link.base === null || isEmptyAction(link)) return target;
      return referenceInFormOf(link.value, target, link.base, { nonEmpty: !mayBeEmpty(link), encoding: link.encoding });
    };
  }
  return (link) => {
    if (!rewritable(link)) return undefined;
    const target = move(link.url);
    if (link.base === null) return target === link.url ? undefined : target;
    const newBase = basicURLParse(move(link.base));
    if (newBase === null) return undefined;
    const now = basicURLParse(link.value, { base: newBase, encoding: link.encoding });
    if (now !== null && serializeURL(now) === target) return undefined;
    const absolute = basicURLParse(link.value) !== null;
    return absolute ? target : relativeReference(target, serializeURL(newBase));
  };
}

/**
 * A rewrite that follows a URL map (see `readURLMap`): every link whose
 * resolved URL the map moves is rewritten to the new URL, keeping its form
 * (an absolute URL stays absolute, a relative reference stays relative
 * where the new URL is on the same origin, see `referenceInFormOf`), and
 * its query and fragment unless the map gives them. A `<base href>` is
 * not rewritten: each link is looked up by the URL it resolves to,
 * through the base. `onProblem` hears of a redirect that does not apply
 * (from a file of the site, not forced) and of a chain too long to follow
 * (the link is left alone).
 *
 * @example
 * ```ts
 * const { map } = readURLMap('{"css/main.css": "css/main-1d87bebe.css"}', { root: "https://example.com/" });
 * rewriteLinks('<link rel=stylesheet href="../css/main.css?v=2"><a href="https://example.com/css/main.css">', {
 *   url: "https://example.com/blog/post.html",
 *   rewrite: mapURLs(map),
 * });
 * // '<link rel=stylesheet href="../css/main-1d87bebe.css?v=2"><a href="https://example.com/css/main-1d87bebe.css">'
 * ```
 */
export function mapURLs(map: URLMap, options: RewriteFilterOption & { readonly onProblem?: ((problem: string) => void) | undefined } = {}): (link: Link) => string | undefined {
  const { filter, onProblem } = options;
  return (link) => {
    if (!rewritable(link) || isBaseHref(link) || (filter !== undefined && !filter(link))) return undefined;
    const target = lookUpURL(map, link.url, onProblem);
    if (target === null || target === link.url) return undefined;
    if (link.base === null || isEmptyAction(link)) return target;
    return referenceInFormOf(link.value, target, link.base, { nonEmpty: !mayBeEmpty(link), encoding: link.encoding });
  };
}
