/**
 * The prepare stage: a whole document as given (a string, or bytes) made
 * ready to read — its options checked, its encoding sniffed, its bytes
 * decoded and its text parsed, and, when a `<meta>` the parser meets
 * declares another encoding while the sniffed one is tentative, decoded
 * and parsed again in that one.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#the-input-byte-stream
 *
 * @module
 */

import type { EncodingName, URLRecord } from "../core/index.ts";
import { changedEncoding, HTML_NAMESPACE, metaDeclaredEncoding } from "../html/index.ts";
import { type DecodedDocument, decodeWith } from "./document-bytes.ts";
import { type EncodingSource, sniffEncoding } from "./encoding-sniffing.ts";
import { parseWithPositions, type ParsedSource, type TagRecord, type TreeKept } from "./html-source.ts";
import { checkDocumentInput, checkDocumentOptions, type DocumentOptions, encodingOfLabel } from "./options.ts";

/**
 * A document ready to be read: its text, how it was decoded, and its parse.
 *
 * @example
 * ```ts
 * prepareDocument("<a href=x>", { url: "https://example.com/" }).parsed.tags.length; // 1
 * ```
 */
export interface PreparedDocument {
  readonly text: string;
  readonly url: Readonly<URLRecord>;
  /** The document's encoding (for a string, the `encoding` option's, else UTF-8): it encodes URL queries. */
  readonly encoding: EncodingName;
  /** What decided {@link encoding}. */
  readonly encodingSource: EncodingSource;
  /** Set for byte input. */
  readonly bytes: Uint8Array | null;
  readonly decoded: DecodedDocument | null;
  readonly parsed: ParsedSource;
  readonly options: DocumentOptions;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead —
 * the encoding a recorded start tag declares, if it is a `meta` the tree
 * construction stage processes as one ("A start tag whose tag name is
 * "meta"": an HTML element made for that tag, not attributes adopted by
 * an existing element), or null.
 *
 * @example
 * ```ts
 * declaredEncoding(parseWithPositions("<meta charset=sjis>").tags[0]); // "Shift_JIS"
 * ```
 */
export function declaredEncoding(tag: TagRecord): EncodingName | null {
  const element = tag.element;
  if (element.tagName !== "meta" || element.namespaceURI !== HTML_NAMESPACE || tag.adopted !== null) return null;
  let charset: string | null = null;
  let httpEquiv: string | null = null;
  let content: string | null = null;
  for (const attr of element.attrs) {
    if (attr.namespace !== undefined && attr.namespace !== "") continue;
    if (attr.name === "charset") charset = attr.value;
    else if (attr.name === "http-equiv") httpEquiv = attr.value;
    else if (attr.name === "content") content = attr.value;
  }
  return metaDeclaredEncoding(charset, httpEquiv, content);
}

/**
 * The first encoding declared by a `meta` among `tags` from index `from`
 * on (see {@link declaredEncoding}), with that tag's index, or null: the
 * one that, while the confidence is tentative, settles the encoding.
 *
 * @example
 * ```ts
 * firstDeclaredEncoding(parseWithPositions("<meta charset=koi8-r><meta charset=sjis>").tags); // { index: 0, encoding: "KOI8-R" }
 * ```
 */
export function firstDeclaredEncoding(tags: readonly TagRecord[], from = 0): { readonly index: number; readonly encoding: EncodingName } | null {
  for (let index = from; index < tags.length; index++) {
    const encoding = declaredEncoding(tags[index]!);
    if (encoding !== null) return { index, encoding };
  }
  return null;
}

/**
 * Checks the options, then reads the input: a string as it is; bytes
 * decoded in the encoding the sniffing algorithm gives, and, while that
 * is tentative, in the one the first `meta` that declares an encoding
 * changes it to (https://html.spec.whatwg.org/multipage/parsing.html#changing-the-encoding-while-parsing:
 * "navigate to the document again", here: decode and parse it again).
 * `keep` says what of the document's tree the parse keeps (see parseWithPositions).
 *
 * @example
 * ```ts
 * prepareDocument(Uint8Array.of(0x3c, 0x70, 0x3e), { url: "https://example.com/" }).encoding; // "windows-1252"
 * ```
 */
export function prepareDocument(html: unknown, options: unknown, keep: TreeKept = "none"): PreparedDocument {
  const checked = checkDocumentOptions(options);
  checkDocumentInput(html);
  const given = encodingOfLabel(checked.label);
  const scripting = checked.scripting;
  if (typeof html === "string") {
    const encoding = given ?? "UTF-8";
    const encodingSource = given === undefined ? "default" : "given";
    return { text: html, url: checked.url, encoding, encodingSource, bytes: null, decoded: null, parsed: parseWithPositions(html, scripting, keep), options: checked };
  }
  const sniffed = sniffEncoding(html, given);
  let encodingSource = sniffed.source;
  let decoded = decodeWith(html, sniffed.encoding);
  let parsed = parseWithPositions(decoded.text, scripting, keep);
  if (sniffed.confidence === "tentative") {
    // https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-inhead — a meta
    // with a charset (or a content-type with one), while the confidence is tentative,
    // changes the encoding; the first one that declares an encoding decides.
    const declared = firstDeclaredEncoding(parsed.tags);
    if (declared !== null) {
      encodingSource = "declaration";
      const next = changedEncoding(decoded.encoding, declared.encoding);
      if (next !== null) {
        decoded = decodeWith(html, next);
        parsed = parseWithPositions(decoded.text, scripting, keep);
      }
    }
  }
  return { text: decoded.text, url: checked.url, encoding: decoded.encoding, encodingSource, bytes: html, decoded, parsed, options: checked };
}
