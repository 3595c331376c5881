/**
 * References from a base URL to a target URL that resolve back to the
 * target: the shortest one, a document-relative (portable) one, and one
 * written in the same form as a link's value. Every candidate is checked
 * by parsing it against the base with the URL Standard's parser.
 *
 * @module
 */

import { basicURLParse, isSpecialScheme, serializeURL, type OutputEncodingName, type URLRecord } from "../core/index.ts";
import { LinksError } from "./errors.ts";

/**
 * How a URL reference is written, which a rewritten link keeps:
 * `"absolute"` (`https://example.com/a`), `"scheme-relative"`
 * (`//example.com/a`), `"path-absolute"` (`/a`), `"path-relative"` (`a`,
 * `../a`, `?q`, `#f`, "").
 *
 * @example
 * ```ts
 * const form: ReferenceForm = "path-relative";
 * ```
 */
export type ReferenceForm = "absolute" | "scheme-relative" | "path-absolute" | "path-relative";

/**
 * The form of reference `value` as the URL parser reads it against a base
 * whose scheme is `baseScheme`: leading and trailing C0 controls and
 * spaces, and tabs and newlines anywhere, do not count; a scheme makes it
 * absolute; against a special scheme, `\` is a slash
 * (https://url.spec.whatwg.org/#relative-slash-state).
 *
 * @example
 * ```ts
 * referenceForm("HTTPS://example.com/", "https"); // "absolute"
 * referenceForm("\\\\example.com/a", "https"); // "scheme-relative"
 * referenceForm("/a", "https"); // "path-absolute"
 * referenceForm("../a.html", "https"); // "path-relative"
 * ```
 */
export function referenceForm(value: string, baseScheme: string): ReferenceForm {
  let start = 0;
  let end = value.length;
  while (start < end && value.charCodeAt(start) <= 0x20) start++;
  while (end > start && value.charCodeAt(end - 1) <= 0x20) end--;
  let input = value.slice(start, end);
  if (/[\t\n\r]/.test(input)) input = input.replace(/[\t\n\r]/g, "");
  if (/^[A-Za-z][A-Za-z0-9+.-]*:/.test(input)) return "absolute";
  const special = isSpecialScheme(baseScheme);
  const slash = (i: number): boolean => input[i] === "/" || (special && input[i] === "\\");
  if (slash(0)) return slash(1) ? "scheme-relative" : "path-absolute";
  return "path-relative";
}

/** The path of a URL record as a list of segments (the record keeps it serialized). */
function segments(url: Readonly<URLRecord>): string[] {
  return url.path === "" ? [] : url.path.slice(1).split("/");
}

function sameAuthority(target: Readonly<URLRecord>, base: Readonly<URLRecord>): boolean {
  return (
    target.scheme === base.scheme &&
    target.username === base.username &&
    target.password === base.password &&
    target.host === base.host &&
    target.port === base.port &&
    !target.opaquePath &&
    !base.opaquePath
  );
}

/** The path-relative candidates for a reference from `base` to `target`, shortest kinds first. */
function pathRelativeCandidates(target: Readonly<URLRecord>, base: Readonly<URLRecord>): string[] {
  const out: string[] = [];
  if (!sameAuthority(target, base)) return out;
  const fragment = target.fragment === null ? "" : `#${target.fragment}`;
  const query = target.query === null ? "" : `?${target.query}`;
  if (target.path === base.path) {
    if (target.query === base.query) out.push(fragment);
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
  return out;
}

/** The candidate of form `form` for a reference from `base` to `target` (serialized as `href`), or null when that form cannot say it. */
function candidateInForm(form: Exclude<ReferenceForm, "path-relative">, target: Readonly<URLRecord>, base: Readonly<URLRecord>, href: string): string | null {
  switch (form) {
    case "absolute":
      return href;
    case "scheme-relative":
      return target.scheme === base.scheme && target.host !== null && href.startsWith(`${target.scheme}:`) ? href.slice(target.scheme.length + 1) : null;
    case "path-absolute":
      return sameAuthority(target, base) ? `${target.path}${target.query === null ? "" : `?${target.query}`}${target.fragment === null ? "" : `#${target.fragment}`}` : null;
  }
}

/** Whether `candidate` parsed against `base` (with `encoding`) is `href`. */
function resolvesTo(candidate: string, base: Readonly<URLRecord>, href: string, encoding: OutputEncodingName | undefined): boolean {
  const back = basicURLParse(candidate, encoding === undefined ? { base: base as URLRecord } : { base: base as URLRecord, encoding });
  return back !== null && serializeURL(back) === href;
}

function parseAbsolute(url: string): URLRecord {
  const record = basicURLParse(url);
  if (record === null) throw new LinksError(`Not an absolute URL: ${JSON.stringify(url)}`);
  return record;
}

/**
 * The shortest reference that resolves back to `target` against `base`
 * (both absolute URLs): "" or a fragment for the base itself, a query, a
 * relative path (`../img/a.png`), a path-absolute reference, a
 * scheme-relative one, or the absolute URL.
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
  const targetURL = parseAbsolute(target);
  const baseURL = parseAbsolute(base);
  const href = serializeURL(targetURL);
  const all = [...pathRelativeCandidates(targetURL, baseURL)];
  for (const form of ["path-absolute", "scheme-relative"] as const) {
    const candidate = candidateInForm(form, targetURL, baseURL, href);
    if (candidate !== null) all.push(candidate);
  }
  let best = href;
  for (const candidate of all) {
    if (candidate.length >= best.length || (options.nonEmpty === true && candidate === "")) continue;
    if (resolvesTo(candidate, baseURL, href, undefined)) best = candidate;
  }
  return best;
}

/**
 * The shortest document-relative reference (a path relative to the base's
 * directory, `../blog/post.html`, or a query or fragment of the base
 * itself) that resolves back to `target` against `base`, or null when
 * there is none (another origin, an opaque path). Such a reference keeps
 * pointing at the same file when both URLs move together: a site served
 * from another root, from a sub-path, or read from disk. `nonEmpty` as
 * for {@link relativeReference}.
 *
 * @example
 * ```ts
 * portableReference("https://example.com/blog/post-2.html", "https://example.com/docs/intro.html"); // "../blog/post-2.html"
 * portableReference("https://example.com/", "https://example.com/docs/", { nonEmpty: true }); // "../"
 * portableReference("https://github.com/x", "https://example.com/"); // null
 * ```
 */
export function portableReference(target: string, base: string, options: { readonly nonEmpty?: boolean } = {}): string | null {
  const targetURL = parseAbsolute(target);
  const baseURL = parseAbsolute(base);
  const href = serializeURL(targetURL);
  let best: string | null = null;
  for (const candidate of pathRelativeCandidates(targetURL, baseURL)) {
    if ((best !== null && candidate.length >= best.length) || (options.nonEmpty === true && candidate === "")) continue;
    if (resolvesTo(candidate, baseURL, href, undefined)) best = candidate;
  }
  return best;
}

/**
 * A reference to `target` from `base` written in the form `value` has
 * (see {@link referenceForm}): an absolute URL stays absolute, a
 * scheme-relative or path-absolute one keeps its form while the target
 * shares the base's scheme or origin, and a relative path stays a
 * relative path ({@link portableReference}); where the form cannot reach
 * the target, the absolute URL. The answer resolves to `target` against
 * `base` with `encoding` (the document's, for the query).
 *
 * @example
 * ```ts
 * referenceInFormOf("css/main.css", "https://example.com/css/main-1d87bebe.css", "https://example.com/"); // "css/main-1d87bebe.css"
 * referenceInFormOf("/css/main.css", "https://example.com/css/main-1d87bebe.css", "https://example.com/blog/"); // "/css/main-1d87bebe.css"
 * referenceInFormOf("css/main.css", "https://cdn.example.net/main.css", "https://example.com/"); // "https://cdn.example.net/main.css"
 * ```
 */
export function referenceInFormOf(value: string, target: string, base: string, options: { readonly nonEmpty?: boolean; readonly encoding?: OutputEncodingName } = {}): string {
  const targetURL = parseAbsolute(target);
  const baseURL = parseAbsolute(base);
  const href = serializeURL(targetURL);
  const form = referenceForm(value, baseURL.scheme);
  let candidate: string | null;
  if (form === "path-relative") candidate = portableReference(href, serializeURL(baseURL), options);
  else candidate = candidateInForm(form, targetURL, baseURL, href);
  return candidate !== null && resolvesTo(candidate, baseURL, href, options.encoding) ? candidate : href;
}
