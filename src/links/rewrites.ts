/**
 * Ready-made rewrites for {@link rewriteLinks}: absolutize, relativize and
 * rebase. Each returns a `rewrite` function.
 *
 * @module
 */

import { basicURLParse, serializeURL, type URLRecord } from "../core/index.ts";
import { LinksError } from "./errors.ts";
import type { Link } from "./link-types.ts";

/** Whether a rewrite may touch this link: not a missing form action, and resolved. */
function rewritable(link: Link): link is Link & { url: string } {
  return link.missing !== true && link.url !== null;
}

/**
 * A rewrite that replaces every URL by its resolved, absolute form (what
 * `link.url` says), so that the document can move without its links
 * changing meaning. URLs that do not parse, and forms without an action,
 * are left alone.
 *
 * @example
 * ```ts
 * rewriteLinks('<base href="/docs/"><a href="intro">', { url: "https://example.com/", rewrite: absolutize() });
 * // '<base href="https://example.com/docs/"><a href="https://example.com/docs/intro">'
 * ```
 */
export function absolutize(): (link: Link) => string | undefined {
  return (link) => (rewritable(link) ? link.url : undefined);
}

/** The path of a URL record as a list of segments (the record keeps it serialized). */
function segments(url: Readonly<URLRecord>): string[] {
  return url.path === "" ? [] : url.path.slice(1).split("/");
}

/** The candidates for a reference from `base` to `target`, shortest kinds first. */
function candidates(target: Readonly<URLRecord>, base: Readonly<URLRecord>, href: string): string[] {
  const out: string[] = [];
  const fragment = target.fragment === null ? "" : `#${target.fragment}`;
  const query = target.query === null ? "" : `?${target.query}`;
  const sameAuthority =
    target.scheme === base.scheme &&
    target.username === base.username &&
    target.password === base.password &&
    target.host === base.host &&
    target.port === base.port;
  if (sameAuthority && !target.opaquePath && !base.opaquePath) {
    if (target.path === base.path) {
      if (target.query === base.query) out.push(fragment === "" ? "" : fragment);
      out.push(`${query === "" ? "?" : query}${fragment}`);
    }
    // A path relative to the base's directory.
    const from = segments(base);
    from.pop(); // The base's last segment is not a directory.
    const to = segments(target);
    let common = 0;
    while (common < from.length && common < to.length - 1 && from[common] === to[common]) common++;
    const up = from.length - common;
    const rest = to.slice(common);
    let relative = "../".repeat(up) + rest.join("/");
    if (relative === "") {
      // The base's directory itself.
      out.push(`.${query}${fragment}`, `./${query}${fragment}`);
    } else {
      // A first segment that is empty ("//…") or has a ":" would read as something else.
      if (up === 0 && (rest[0] === "" || rest[0]!.includes(":"))) relative = `./${relative}`;
      out.push(`${relative}${query}${fragment}`);
    }
    out.push(`${target.path}${query}${fragment}`);
  }
  if (target.scheme === base.scheme && target.host !== null && href.startsWith(`${target.scheme}:`)) {
    out.push(href.slice(target.scheme.length + 1));
  }
  out.push(href);
  return out;
}

/**
 * The shortest reference that resolves back to `target` against `base`
 * (both absolute URLs): "" or a fragment for the base itself, a query, a
 * relative path (`../img/a.png`), a path-absolute reference, a
 * scheme-relative one, or the absolute URL. Every candidate is checked by
 * parsing it against the base, with the URL Standard's parser, so the
 * answer always resolves back.
 *
 * @example
 * ```ts
 * relativeReference("https://example.com/docs/img/a.png", "https://example.com/docs/guide/intro");
 * // "../img/a.png"
 * relativeReference("https://cdn.example.com/x.js", "https://example.com/"); // "//cdn.example.com/x.js"
 * relativeReference("mailto:someone@example.com", "https://example.com/"); // "mailto:someone@example.com"
 * relativeReference("https://example.com/p.html", "https://example.com/p.html"); // ""
 * relativeReference("https://example.com/p.html", "https://example.com/p.html", { nonEmpty: true }); // "p.html"
 * ```
 *
 * With `nonEmpty`, "" is never the answer: for a resource (`img src`,
 * `script src`, a srcset or ping item, CSS `url()`, a form action) the empty
 * string means something else than the base URL — no request at all,
 * about:blank, an item that vanishes, the form's document URL — so the
 * shortest non-empty reference (the file name, `./`, `?query`, …) is given.
 */
export function relativeReference(target: string, base: string, options: { readonly nonEmpty?: boolean } = {}): string {
  const targetURL = basicURLParse(target);
  const baseURL = basicURLParse(base);
  if (targetURL === null) throw new LinksError(`Not an absolute URL: ${JSON.stringify(target)}`);
  if (baseURL === null) throw new LinksError(`Not an absolute URL: ${JSON.stringify(base)}`);
  const href = serializeURL(targetURL);
  let best = href;
  const nonEmpty = options.nonEmpty === true;
  for (const candidate of candidates(targetURL, baseURL, href)) {
    if (candidate.length >= best.length || (nonEmpty && candidate === "")) continue;
    const back = basicURLParse(candidate, { base: baseURL });
    if (back !== null && serializeURL(back) === href) best = candidate;
  }
  return best;
}

/**
 * A rewrite that replaces every URL by the shortest reference that resolves
 * back to the same URL against the base it is resolved against (the
 * document base URL; for `<base href>`, the fallback base URL; for a srcdoc
 * document's links, that document's base URL). `itemtype` URLs (which
 * must be absolute), URLs that do not parse, and missing form actions are
 * left alone, and so is a link already in its shortest form. Only an `<a>`
 * or `<area>` href may become "" (the base URL itself); every other link
 * gets the shortest non-empty reference (see {@link relativeReference}).
 *
 * @example
 * ```ts
 * rewriteLinks('<a href="https://example.com/docs/a.html#top">', {
 *   url: "https://example.com/docs/index.html",
 *   rewrite: relativize(),
 * });
 * // '<a href="a.html#top">'
 * ```
 */
export function relativize(): (link: Link) => string | undefined {
  return (link) => {
    if (!rewritable(link) || link.base === null) return undefined;
    // Only a hyperlink's "" is the same URL: https://html.spec.whatwg.org/multipage/links.html#following-hyperlinks
    // parses its href against the document base URL; elsewhere "" means no resource, about:blank, or the form's document URL.
    const hyperlink = link.namespace === "html" && link.attribute === "href" && (link.element === "a" || link.element === "area");
    const reference = relativeReference(link.url, link.base, { nonEmpty: !hyperlink });
    // A link whose own text is no longer already is as short as it gets.
    return reference.length < link.value.length ? reference : undefined;
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
 * @example
 * ```ts
 * rewriteLinks('<base href="https://old.example/docs/"><a href="a.html"><a href="/docs/b.html">', {
 *   url: "https://old.example/docs/index.html",
 *   rewrite: rebase("https://old.example/docs/", "https://new.example/v2/"),
 * });
 * // '<base href="https://new.example/v2/"><a href="a.html"><a href="b.html">'
 * ```
 */
export function rebase(from: string, to: string): (link: Link) => string | undefined {
  const fromURL = basicURLParse(from);
  const toURL = basicURLParse(to);
  if (fromURL === null) throw new LinksError(`rebase: "from" is not an absolute URL: ${JSON.stringify(from)}`);
  if (toURL === null) throw new LinksError(`rebase: "to" is not an absolute URL: ${JSON.stringify(to)}`);
  const fromHref = serializeURL(fromURL);
  const toHref = serializeURL(toURL);
  const move = (href: string): string => (href.startsWith(fromHref) ? toHref + href.slice(fromHref.length) : href);
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
