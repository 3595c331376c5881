/**
 * The options of every entry point of the links layer (`extractLinks`,
 * `rewriteLinks`, `LinkStream`, `createLinkRewriter`, `streamLinks`, the
 * Node.js transform), their defaults, and their checking, in one place:
 * a bad option throws a {@link LinksError} naming it, an unknown encoding
 * label the core's `UnknownEncodingError`.
 *
 * @module
 */

import { basicURLParse, type EncodingName, getEncoding, UnknownEncodingError, type URLRecord } from "../core/index.ts";
import { isUint8Array } from "./document-bytes.ts";
import { LinksError } from "./errors.ts";
import type { Link, SrcdocTooDeep, StreamWarning } from "./link-types.ts";

/**
 * Options of {@link extractLinks}.
 *
 * @example
 * ```ts
 * const options: ExtractLinksOptions = { url: "https://example.com/docs/", encoding: "windows-1252", validate: true };
 * ```
 */
export interface ExtractLinksOptions {
  /** The document's URL: an absolute URL. Relative links resolve against it (or against its `<base>`). */
  readonly url: string;
  /**
   * The document's encoding, any Encoding Standard label. For a string, it
   * decides how URL queries are encoded (default UTF-8). For bytes, it
   * overrides sniffing, as an HTTP charset would (a BOM still wins);
   * without it, the HTML encoding sniffing algorithm decides (BOM, meta
   * prescan, windows-1252).
   */
  readonly encoding?: string | undefined;
  /** Report the URL Standard's validation errors of each value in `errors`. Default false. */
  readonly validate?: boolean | undefined;
  /**
   * https://html.spec.whatwg.org/multipage/webappapis.html#concept-n-script —
   * parse as a browser with scripting enabled (the default: `noscript`
   * content is text, so its links are not links), or, with false, as one
   * without (a crawler that runs no script sees the links in `noscript`).
   */
  readonly scripting?: boolean | undefined;
  /**
   * How many srcdoc levels deep links are read (default
   * {@link DEFAULT_MAX_SRCDOC_DEPTH}). Each level's text holds every level
   * inside it, so reading n levels costs n passes over the deepest text:
   * the cap keeps a hostile document linear. The srcdoc documents of
   * iframes deeper than that are not read; `onSrcdocTooDeep` hears of each.
   */
  readonly maxSrcdocDepth?: number | undefined;
  /** Called for each iframe whose srcdoc document is beyond `maxSrcdocDepth`, with where its srcdoc value starts in the source. */
  readonly onSrcdocTooDeep?: ((place: SrcdocTooDeep) => void) | undefined;
}

/**
 * The default of `maxSrcdocDepth`: 32 levels of srcdoc documents, far more
 * than pages use, and few enough that a document of thousands of nested
 * levels (each level's text holding all the deeper ones) stays linear.
 * Browsers cap nested browsing contexts too.
 *
 * @example
 * ```ts
 * extractLinks(html, { url: "https://example.com/", maxSrcdocDepth: DEFAULT_MAX_SRCDOC_DEPTH * 2 });
 * ```
 */
export const DEFAULT_MAX_SRCDOC_DEPTH = 32;

/**
 * The most validation errors kept for one link's value (`validate`): a
 * value of millions of invalid characters is validated in bounded memory;
 * its link's `errorsOmitted` counts the rest.
 *
 * @example
 * ```ts
 * const [link] = extractLinks(`<a href="${"% ".repeat(5000)}">`, { url: "https://example.com/", validate: true });
 * link.errors.length; // MAX_ERRORS_PER_VALUE
 * link.errorsOmitted; // the errors beyond it
 * ```
 */
export const MAX_ERRORS_PER_VALUE = 1000;

/**
 * Options of {@link rewriteLinks}.
 *
 * @example
 * ```ts
 * const options: RewriteLinksOptions = {
 *   url: "https://example.com/docs/",
 *   rewrite: (link) => (link.url?.startsWith("http:") ? link.url.replace("http:", "https:") : undefined),
 * };
 * ```
 */
export interface RewriteLinksOptions {
  /** The document's URL (see `ExtractLinksOptions.url`). */
  readonly url: string;
  /** The document's encoding label (see `ExtractLinksOptions.encoding`). */
  readonly encoding?: string | undefined;
  /** Parse with scripting enabled (see `ExtractLinksOptions.scripting`); default true. */
  readonly scripting?: boolean | undefined;
  /**
   * Called once per link, in source order, with the link as
   * {@link extractLinks} reports it; returns the new text of that URL, or
   * undefined (or the link's own `value`) to leave it as it is.
   */
  readonly rewrite: (link: Link) => string | undefined;
}

/**
 * The default of `maxHold`: 1 MiB of input held while the base URL (or
 * the encoding) is not settled. Most pages are smaller, and are then read
 * exactly whatever they hold; a larger page without a `<base>` in its head
 * starts to flow after its first MiB. A larger hold leaves V8's heap sized
 * for the held parse for the rest of the stream.
 *
 * @example
 * ```ts
 * new LinkStream({ url: "https://example.com/", maxHold: DEFAULT_MAX_HOLD * 4 }); // holds up to 4 MiB
 * ```
 */
export const DEFAULT_MAX_HOLD = 1024 * 1024;

/**
 * Options of {@link LinkStream}: those of {@link extractLinks} (and of
 * {@link rewriteLinks}: `rewrite`), and what a stream adds.
 *
 * @example
 * ```ts
 * const options: LinkStreamOptions = { url: "https://example.com/", onLink: (link) => console.log(link.url), maxHold: 1 << 20 };
 * ```
 */
export interface LinkStreamOptions extends ExtractLinksOptions {
  /** As {@link rewriteLinks}'s: the new text of a URL, or undefined to keep it. Without it, the output is the input. */
  readonly rewrite?: ((link: Link) => string | undefined) | undefined;
  /** Called with each link, in source order, as soon as it is resolved. */
  readonly onLink?: ((link: Link) => void) | undefined;
  /** Called with each piece of output (bytes for byte input, text for text); without it, no output is made. */
  readonly onOutput?: ((chunk: Uint8Array | string) => void) | undefined;
  /**
   * The most input (bytes, or UTF-16 code units for text) held while the
   * document base URL or the encoding is not settled; default
   * {@link DEFAULT_MAX_HOLD}. `Infinity`: always exact, holding a whole
   * document that has no `<base>` in its head.
   */
  readonly maxHold?: number | undefined;
  /**
   * Called when `maxHold` made links differ from the whole document's (see
   * {@link StreamWarning}): a `<base>` or a `<meta>` that declares an
   * encoding came after links were resolved. Without it (and without
   * `settled`), such a document's links are silently the held part's.
   *
   * @example
   * ```ts
   * new LinkStream({ url, onWarning: (w) => console.warn(`${w.line}:${w.column}: ${w.type}: ${w.message}`) });
   * ```
   */
  readonly onWarning?: ((warning: StreamWarning) => void) | undefined;
  /**
   * The document's encoding and first `<base href>`, as a first reading
   * settled them ({@link settleDocument}): the stream then holds nothing
   * (`maxHold` does not matter) and gives the whole document's links and
   * bytes, whatever its size. Its `encoding` is taken as certain (it
   * replaces the `encoding` option).
   *
   * @example
   * ```ts
   * new LinkStream({ url: "https://example.com/", settled: { encoding: "UTF-8", firstBaseHref: "/moved/" }, onLink });
   * ```
   */
  readonly settled?: SettledDocument | undefined;
  /**
   * The longest token held (an attribute, a comment, the text of a
   * `<style>` or `<script>`, an SVG `<style>` and what the parser puts in
   * it), in UTF-16 code units; default `Infinity`. The stream holds the
   * longest token whole (its links are in it): past this, `write` throws a
   * {@link LinksError} that says on which line it starts, instead of
   * holding it. A document the stream reads whole (ISO-2022-JP, the
   * replacement encoding) is one token.
   *
   * @example
   * ```ts
   * new LinkStream({ url, maxToken: 32 * 1024 * 1024, onLink }); // a 1 GB comment is an error, not 2 GB of memory
   * ```
   */
  readonly maxToken?: number | undefined;
}

/**
 * What a stream cannot know before a document's end, settled by a first
 * reading ({@link settleDocument}) for the stream's `settled` option.
 *
 * @example
 * ```ts
 * const settled: SettledDocument = { encoding: "windows-1252", firstBaseHref: null }; // no <base href>
 * ```
 */
export interface SettledDocument {
  /** The encoding the document is read in (any Encoding Standard label); for text, the one URL queries are encoded with. */
  readonly encoding: string;
  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
   * the `href` of the first `base` element with an `href` in tree order, as
   * written (not resolved); null when the document has none.
   */
  readonly firstBaseHref: string | null;
}

/**
 * Options of {@link createLinkRewriter}: a stream's options, with
 * `rewrite` required (the output is the stream's readable side).
 *
 * @example
 * ```ts
 * const options: LinkRewriterOptions = { url: "https://example.com/", rewrite: (link) => link.url ?? undefined };
 * ```
 */
export interface LinkRewriterOptions extends Omit<LinkStreamOptions, "onOutput" | "rewrite"> {
  readonly rewrite: (link: Link) => string | undefined;
}

/**
 * The options every reading of a document takes, checked.
 *
 * @example
 * ```ts
 * checkDocumentOptions({ url: "https://example.com/" }).scripting; // true
 * ```
 */
export interface DocumentOptions {
  readonly url: Readonly<URLRecord>;
  /** The `encoding` label as given (see {@link encodingOfLabel}). */
  readonly label: string | undefined;
  readonly validate: boolean;
  readonly scripting: boolean;
  readonly maxSrcdocDepth: number;
  readonly onSrcdocTooDeep: ((place: SrcdocTooDeep) => void) | undefined;
}

/**
 * The options a stream takes beyond a document's, checked.
 *
 * @example
 * ```ts
 * checkStreamOptions({ url: "https://example.com/", maxHold: 0 }).maxHold; // 0
 * ```
 */
export interface StreamOptions extends DocumentOptions {
  readonly maxHold: number;
  readonly maxToken: number;
  readonly rewrite: ((link: Link) => string | undefined) | undefined;
  readonly onLink: ((link: Link) => void) | undefined;
  readonly onOutput: ((chunk: Uint8Array | string) => void) | undefined;
  readonly onWarning: ((warning: StreamWarning) => void) | undefined;
  /** The `settled` option (its encoding is then also {@link DocumentOptions.label}). */
  readonly settled: SettledDocument | undefined;
}

/** A bad option's value as the caller wrote it: `NaN`, `-Infinity`, `10n`, `"1M"`. */
function describeValue(value: unknown): string {
  if (typeof value === "number") return Object.is(value, -0) ? "-0" : String(value);
  if (typeof value === "bigint") return `${value}n (a BigInt)`;
  if (typeof value === "string") return `${JSON.stringify(value)} (a string)`;
  return value === null ? "null" : typeof value === "object" || typeof value === "function" ? `a value of type ${typeof value}` : String(value);
}

/** Checks the `settled` option: undefined, or `{ encoding, firstBaseHref }` with a known encoding label. */
function checkSettled(value: unknown): SettledDocument | undefined {
  if (value === undefined) return undefined;
  const settled = value as Partial<SettledDocument> | null;
  if (settled === null || typeof settled !== "object" || typeof settled.encoding !== "string" || (settled.firstBaseHref !== null && typeof settled.firstBaseHref !== "string")) {
    throw new LinksError(`The "settled" option must be { encoding: string, firstBaseHref: string | null } (what settleDocument gives), not ${describeValue(value)}`);
  }
  encodingOfLabel(settled.encoding);
  return { encoding: settled.encoding, firstBaseHref: settled.firstBaseHref };
}

function typeName(value: unknown): string {
  return value === null ? "null" : typeof value;
}

/**
 * Checks that the options are an object; throws a {@link LinksError}.
 *
 * @example
 * ```ts
 * checkObject(null); // throws LinksError: The options must be an object with a "url", not null
 * ```
 */
export function checkObject(options: unknown): asserts options is Record<string, unknown> {
  if (options === null || typeof options !== "object") throw new LinksError(`The options must be an object with a "url", not ${String(options)}`);
}

function checkFunction(options: Record<string, unknown>, name: string): void {
  const value = options[name];
  if (value !== undefined && typeof value !== "function") throw new LinksError(`The "${name}" option must be a function, not ${typeof value}`);
}

/**
 * Checks the `url` option and parses it; throws a {@link LinksError} naming a bad one.
 *
 * @example
 * ```ts
 * documentURLOption("https://example.com/").host; // "example.com"
 * documentURLOption("nope"); // throws LinksError: The "url" option is not an absolute URL: "nope"
 * ```
 */
export function documentURLOption(url: unknown): Readonly<URLRecord> {
  if (typeof url !== "string") throw new LinksError(`The "url" option must be a string (an absolute URL), not ${typeName(url)}`);
  const record = basicURLParse(url);
  if (record === null) throw new LinksError(`The "url" option is not an absolute URL: ${JSON.stringify(url)}`);
  return record;
}

/**
 * Checks the options that say how to read a document (`url`, `encoding`,
 * `validate`, `scripting`, `maxSrcdocDepth`, `onSrcdocTooDeep`); throws a
 * {@link LinksError} naming a bad one. An `encoding` label is checked
 * against the Encoding Standard's labels later, by {@link encodingOfLabel}.
 *
 * @example
 * ```ts
 * checkDocumentOptions({ url: "https://example.com/" }).maxSrcdocDepth; // 32
 * checkDocumentOptions({ url: "https://example.com/", maxSrcdocDepth: -1 }); // throws LinksError
 * ```
 */
export function checkDocumentOptions(options: unknown): DocumentOptions {
  checkObject(options);
  const url = documentURLOption(options["url"]);
  const label = options["encoding"];
  if (label !== undefined && typeof label !== "string") throw new LinksError(`The "encoding" option must be a string (an encoding label), not ${typeof label}`);
  const depth = options["maxSrcdocDepth"];
  if (depth !== undefined && (typeof depth !== "number" || !Number.isInteger(depth) || depth < 0)) {
    throw new LinksError(`The "maxSrcdocDepth" option must be a whole number of levels (0 or more), not ${describeValue(depth)}`);
  }
  checkFunction(options, "onSrcdocTooDeep");
  return {
    url,
    label,
    validate: options["validate"] === true,
    scripting: options["scripting"] !== false,
    maxSrcdocDepth: depth ?? DEFAULT_MAX_SRCDOC_DEPTH,
    onSrcdocTooDeep: options["onSrcdocTooDeep"] as DocumentOptions["onSrcdocTooDeep"],
  };
}

/**
 * Checks the `rewrite` option of `rewriteLinks` and of the rewriting
 * streams: a function; throws a {@link LinksError}.
 *
 * @example
 * ```ts
 * checkRewriteOption({ url: "https://example.com/" }); // throws: The "rewrite" option must be a function, not undefined
 * ```
 */
export function checkRewriteOption(options: unknown): void {
  const rewrite = (options as { rewrite?: unknown } | null | undefined)?.rewrite;
  if (typeof rewrite !== "function") throw new LinksError(`The "rewrite" option must be a function, not ${typeof rewrite}`);
}

/**
 * Checks what a rewriting stream (`createLinkRewriter`, the Node.js
 * transform) needs before its {@link LinkStream}: an options object with
 * a `rewrite` function.
 *
 * @example
 * ```ts
 * checkRewriterOptions({ url: "https://example.com/" }); // throws: The "rewrite" option must be a function, not undefined
 * ```
 */
export function checkRewriterOptions(options: unknown): void {
  checkObject(options);
  checkRewriteOption(options);
}

/**
 * Checks a {@link LinkStream}'s options: a document's, the encoding
 * label, `maxHold`, and the callbacks.
 *
 * @example
 * ```ts
 * checkStreamOptions({ url: "https://example.com/" }).maxHold; // 1048576
 * ```
 */
export function checkStreamOptions(options: unknown): StreamOptions {
  const document = checkDocumentOptions(options);
  const given = options as Record<string, unknown>;
  encodingOfLabel(document.label);
  const maxHold = given["maxHold"] ?? DEFAULT_MAX_HOLD;
  if (typeof maxHold !== "number" || Number.isNaN(maxHold) || maxHold < 0) {
    throw new LinksError(`The "maxHold" option must be a number of bytes (0 or more, or Infinity), not ${describeValue(maxHold)}`);
  }
  const maxToken = given["maxToken"] ?? Infinity;
  if (typeof maxToken !== "number" || Number.isNaN(maxToken) || maxToken < 1) {
    throw new LinksError(`The "maxToken" option must be a number of characters (1 or more, or Infinity), not ${describeValue(maxToken)}`);
  }
  for (const name of ["rewrite", "onLink", "onOutput", "onWarning"]) checkFunction(given, name);
  const settled = checkSettled(given["settled"]);
  return {
    ...document,
    maxToken,
    label: settled?.encoding ?? document.label,
    settled,
    maxHold,
    rewrite: given["rewrite"] as StreamOptions["rewrite"],
    onLink: given["onLink"] as StreamOptions["onLink"],
    onOutput: given["onOutput"] as StreamOptions["onOutput"],
    onWarning: given["onWarning"] as StreamOptions["onWarning"],
  };
}

/**
 * The encoding an `encoding` label names (undefined: none given); throws
 * the core's `UnknownEncodingError` for a label the Encoding Standard does
 * not have.
 *
 * @example
 * ```ts
 * encodingOfLabel("latin1"); // "windows-1252"
 * encodingOfLabel("nope"); // throws UnknownEncodingError
 * ```
 */
export function encodingOfLabel(label: string | undefined): EncodingName | undefined {
  if (label === undefined) return undefined;
  const encoding = getEncoding(label);
  if (encoding === null) throw new UnknownEncodingError(label);
  return encoding;
}

/**
 * Checks a whole document given to `extractLinks` or `rewriteLinks`: a
 * string or a Uint8Array (of any realm).
 *
 * @example
 * ```ts
 * checkDocumentInput(42); // throws LinksError: The document must be a string or a Uint8Array, not number
 * ```
 */
export function checkDocumentInput(html: unknown): asserts html is string | Uint8Array {
  if (typeof html !== "string" && !isUint8Array(html)) throw new LinksError(`The document must be a string or a Uint8Array, not ${typeName(html)}`);
}

/**
 * Checks one piece written to a {@link LinkStream}: a string or a
 * Uint8Array; returns which.
 *
 * @example
 * ```ts
 * pieceKind("<p>"); // "text"
 * ```
 */
export function pieceKind(chunk: unknown): "text" | "bytes" {
  if (typeof chunk === "string") return "text";
  if (isUint8Array(chunk)) return "bytes";
  throw new LinksError(`A piece of the document must be a string or a Uint8Array, not ${typeName(chunk)}`);
}

/**
 * Checks the source given to `streamLinks`: an object (a stream or an iterable).
 *
 * @example
 * ```ts
 * checkStreamSource(null); // throws LinksError
 * ```
 */
export function checkStreamSource(source: unknown): void {
  if (source === null || (typeof source !== "object" && typeof source !== "function")) {
    throw new LinksError(`The source must be a ReadableStream or an iterable of Uint8Arrays or strings, not ${typeName(source)}`);
  }
}
