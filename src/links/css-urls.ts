/**
 * URL references in CSS (`url()`, `src()`, `image-set()` strings and
 * `@import`), found with a real CSS tokenizer (@csstools/css-tokenizer,
 * which follows CSS Syntax Level 3's tokenizer), with where each URL's text
 * is, and the escaping a new URL needs in CSS.
 *
 * https://drafts.csswg.org/css-values-4/#urls
 * https://drafts.csswg.org/css-cascade-5/#at-import
 *
 * @module
 */

import { tokenize, TokenType, type CSSToken } from "@csstools/css-tokenizer";
import { asciiLowercase, isASCIIWhitespace } from "../core/infra.ts";
import { type DecodedText, DecodedTextBuilder } from "./character-references.ts";

/**
 * One URL reference in a piece of CSS.
 *
 * @example
 * ```ts
 * const ref: CSSURLReference = { value: "a.png", start: 4, end: 9, context: "", import: false };
 * ```
 */
export interface CSSURLReference {
  /** The URL (escapes decoded). */
  readonly value: string;
  /** Where the URL's text (inside the quotes or parentheses) starts and ends in the CSS. */
  readonly start: number;
  readonly end: number;
  /** The quote around it, or "" for an unquoted `url(…)`. */
  readonly context: '"' | "'" | "";
  /** True for the URL of an `@import` rule. */
  readonly import: boolean;
}

/** The string token's text range (inside its quotes) and its quote. */
function stringRange(css: string, token: CSSToken): { start: number; end: number; quote: '"' | "'" } {
  const start = token[2];
  const last = token[3];
  const quote = css[start] === "'" ? "'" : '"';
  let end = last + 1;
  if (last > start && css[last] === quote) {
    // A string that ends at EOF has no closing quote; an escaped quote does not close it.
    let backslashes = 0;
    for (let i = last - 1; i > start && css.charCodeAt(i) === 0x5c; i--) backslashes++;
    if (backslashes % 2 === 0) end = last;
  }
  return { start: start + 1, end, quote };
}

/** Whether an odd run of backslashes ends just before `css[at]` (not looking before `floor`): `css[at]` is escaped. */
function afterEscapingBackslash(css: string, at: number, floor: number): boolean {
  let backslashes = 0;
  for (let k = at - 1; k >= floor && css.charCodeAt(k) === 0x5c; k--) backslashes++;
  return backslashes % 2 === 1;
}

/**
 * Whether the whitespace at `css[at]` belongs to an escape: an escaped
 * whitespace character ("\ "), or the one whitespace that ends a hex
 * escape ("\20 ") (https://drafts.csswg.org/css-syntax/#consume-escaped-code-point).
 */
function isEscapeWhitespace(css: string, at: number, floor: number): boolean {
  if (afterEscapingBackslash(css, at, floor)) return true;
  let k = at;
  while (k > floor && at - k < 7 && isHexDigit(css.charCodeAt(k - 1))) k--;
  return k < at && at - k <= 6 && afterEscapingBackslash(css, k, floor);
}

/** The text range inside an unquoted `url(…)` token, without the whitespace around it. */
function urlTokenRange(css: string, token: CSSToken): { start: number; end: number } {
  let i = token[2];
  const last = token[3];
  // The function name may contain escapes ("u\72l("), never an unescaped "(".
  while (i <= last && css.charCodeAt(i) !== 0x28) i += css.charCodeAt(i) === 0x5c ? 2 : 1;
  i++;
  while (i <= last && isASCIIWhitespace(css.charCodeAt(i))) i++;
  // A token that ends at EOF has no ")"; an escaped ")" is part of the URL.
  let end = css.charCodeAt(last) === 0x29 && !afterEscapingBackslash(css, last, i) ? last : last + 1;
  // Trailing whitespace, unless it belongs to an escape (CR LF is one whitespace).
  while (end > i && isASCIIWhitespace(css.charCodeAt(end - 1))) {
    const w = css.charCodeAt(end - 1) === 0x0a && end - 2 >= i && css.charCodeAt(end - 2) === 0x0d ? end - 2 : end - 1;
    if (isEscapeWhitespace(css, w, i)) break;
    end--;
  }
  return { start: i, end };
}

const cssURLHint = /url\(|src\(|image-set\(|@import|\\/i;

/**
 * Whether `css` may hold a URL reference: it has "url(", "src(",
 * "image-set(" or "@import" in some case, or an escape (which could spell
 * them: "\75rl("). False means {@link findCSSURLs} finds nothing.
 *
 * Optimisation: most `style` attributes and many style sheets have no
 * URL, and this spares them the tokenizer.
 *
 * @example
 * ```ts
 * mayContainCSSURL("color: red"); // false
 * mayContainCSSURL("background: URL(a.png)"); // true
 * ```
 */
export function mayContainCSSURL(css: string): boolean {
  return cssURLHint.test(css);
}

/**
 * The URL references in `css`: a style sheet (`<style>`), or the
 * declarations of a `style` attribute or a presentation attribute (where
 * `@import` cannot occur; the tokens are the same). `@namespace` URLs are
 * names, not links, and are skipped.
 *
 * @example
 * ```ts
 * findCSSURLs('@import "a.css"; p { background: url( b.png ) }').map((r) => [r.value, r.import]);
 * // [["a.css", true], ["b.png", false]]
 * ```
 */
export function findCSSURLs(css: string): CSSURLReference[] {
  const refs: CSSURLReference[] = [];
  if (!mayContainCSSURL(css)) return refs;
  const tokens = tokenize({ css });
  /** The function whose arguments we are in ("url", "src", "image-set" …), by nesting depth. */
  const functions: string[] = [];
  /** Set after `@import` until its prelude's first URL or string, or the end of the prelude. */
  let inImport = false;
  let inNamespace = false;
  for (let t = 0; t < tokens.length; t++) {
    const token = tokens[t]!;
    switch (token[0]) {
      case TokenType.AtKeyword: {
        const name = asciiLowercase((token[4] as { value: string }).value);
        inImport = name === "import";
        inNamespace = name === "namespace";
        break;
      }
      case TokenType.Semicolon:
      case TokenType.OpenCurly:
      case TokenType.CloseCurly:
        inImport = false;
        inNamespace = false;
        break;
      case TokenType.URL: {
        if (!inNamespace) {
          const { start, end } = urlTokenRange(css, token);
          refs.push({ value: (token[4] as { value: string }).value, start, end, context: "", import: inImport });
        }
        inImport = false;
        break;
      }
      case TokenType.Function:
        functions.push(asciiLowercase((token[4] as { value: string }).value));
        break;
      case TokenType.OpenParen:
      case TokenType.OpenSquare:
        functions.push("");
        break;
      case TokenType.CloseParen:
      case TokenType.CloseSquare:
        functions.pop();
        break;
      case TokenType.String: {
        const fn = functions[functions.length - 1];
        const isURL =
          (inImport && functions.length === 0) ||
          fn === "url" ||
          fn === "src" ||
          fn === "image-set" ||
          fn === "-webkit-image-set";
        if (isURL && !inNamespace) {
          const { start, end, quote } = stringRange(css, token);
          refs.push({ value: (token[4] as { value: string }).value, start, end, context: quote, import: inImport });
          if (functions.length === 0 || fn === "url" || fn === "src") inImport = false;
        }
        break;
      }
      default:
        break;
    }
  }
  return refs;
}

function isHexDigit(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

function isSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdfff;
}

/**
 * The map from a URL reference's value back to its text in `css` (the
 * CSS it was found in), to tell where something found in the value (a
 * validation error) is in the CSS: null when the text is the value as it
 * is, so that offset `d` of the value is offset `ref.start + d` of the
 * CSS; else the text decoded again as the tokenizer decodes it, with the
 * map (see `sourceStart` and `sourceEnd` of character-references.ts): an
 * escape's code point maps to the whole escape, from its `\` to the
 * whitespace that ends a hex escape. Its `text` is `ref.value` unless
 * this decoder and the tokenizer disagree, which the caller checks before
 * using the map.
 *
 * Optimisation: most URLs are written without escapes; for them, nothing
 * is allocated (the raw text equals the value, so the map is the identity).
 *
 * @example
 * ```ts
 * const css = "background: url(a\\20 b)";
 * const [ref] = findCSSURLs(css); // value "a b", start 16, end 22
 * const map = cssValueMap(css, ref)!;
 * map.text; // "a b"
 * [sourceStart(map, 1), sourceEnd(map, 2)]; // [17, 21]: the space is "\\20 "
 * cssValueMap("url(a.png)", findCSSURLs("url(a.png)")[0]); // null
 * ```
 */
export function cssValueMap(css: string, ref: CSSURLReference): DecodedText | null {
  const { start, end, value } = ref;
  // Decoding only shortens or replaces, so a text as long as the value and equal to it has nothing decoded.
  if (end - start === value.length && css.startsWith(value, start)) return null;
  const out = new DecodedTextBuilder(css, start, end);
  let i = start;
  while (i < end) {
    const c = css.charCodeAt(i);
    if (c === 0x5c) {
      let j = i + 1;
      if (j >= end) {
        // https://drafts.csswg.org/css-syntax/#consume-string-token — a "\"
        // before EOF in a string: "do nothing"; in a url(), an escape at EOF
        // is U+FFFD (https://drafts.csswg.org/css-syntax/#consume-escaped-code-point).
        if (ref.context === "") out.replace(i, end, "\uFFFD");
        else out.skip(i, end);
        i = end;
        continue;
      }
      const next = css.charCodeAt(j);
      if (next === 0x0a || next === 0x0c || next === 0x0d) {
        // https://drafts.csswg.org/css-syntax/#consume-string-token — "If the
        // next input code point is a newline, consume it": a line continuation,
        // nothing decoded (a url() with one is a bad-url token, never a URL).
        j += next === 0x0d && css.charCodeAt(j + 1) === 0x0a ? 2 : 1;
        out.skip(i, j);
        i = j;
        continue;
      }
      let text: string;
      // https://drafts.csswg.org/css-syntax/#consume-escaped-code-point
      if (isHexDigit(next)) {
        // "Consume as many hex digits as possible, but no more than 5" (after
        // the first), then one whitespace (CR LF is one, after preprocessing).
        let code = 0;
        while (j < end && j < i + 7 && isHexDigit(css.charCodeAt(j))) {
          const digit = css.charCodeAt(j);
          code = code * 16 + (digit <= 0x39 ? digit - 0x30 : (digit | 0x20) - 0x61 + 10);
          j++;
        }
        const w = j < end ? css.charCodeAt(j) : -1;
        if (w === 0x0d) j += j + 1 < end && css.charCodeAt(j + 1) === 0x0a ? 2 : 1;
        else if (isASCIIWhitespace(w)) j++;
        // "If this number is zero, or is for a surrogate, or is greater than
        // the maximum allowed code point, return U+FFFD."
        text = code === 0 || isSurrogate(code) || code > 0x10ffff ? "\uFFFD" : String.fromCodePoint(code);
      } else {
        // "Otherwise: return the current input code point" (a whole surrogate pair).
        const cp = css.codePointAt(j)!;
        const size = cp > 0xffff ? 2 : 1;
        text = cp === 0 || isSurrogate(cp) ? "\uFFFD" : css.slice(j, j + size);
        j += size;
      }
      out.replace(i, j, text);
      i = j;
      continue;
    }
    if (isSurrogate(c)) {
      // A surrogate pair stays; a lone surrogate becomes U+FFFD, as NUL does.
      if (c <= 0xdbff && i + 1 < end && css.charCodeAt(i + 1) >= 0xdc00 && css.charCodeAt(i + 1) <= 0xdfff) {
        i += 2;
        continue;
      }
    } else if (c !== 0) {
      i++;
      continue;
    }
    // https://drafts.csswg.org/css-syntax/#input-preprocessing — NUL and surrogates become U+FFFD.
    out.replace(i, i + 1, "\uFFFD");
    i++;
  }
  return out.finish();
}

/**
 * Escapes `url` for where it goes in CSS: inside a string delimited by
 * `context`, or (context "") inside an unquoted `url(…)`. Only what would
 * end or change the token is escaped, as `\` + hex + space
 * (https://drafts.csswg.org/cssom/#serialize-a-string does the same for
 * strings); `<` before `/` is escaped too, so that no `</style` can appear
 * in a `<style>` element. With `markup` (an SVG `style` element, whose
 * content the HTML parser reads as markup: character references and tags),
 * every `&` and `<` is escaped as well, so that the text stays plain text
 * that the tree holds as it is written.
 *
 * @example
 * ```ts
 * escapeCSSURL('a"b', '"'); // 'a\\22 b'
 * escapeCSSURL("a b(c)", ""); // "a\\20 b\\28 c\\29 "
 * escapeCSSURL("?a=1&b=<", '"', true); // "?a=1\\26 b=\\3c "
 * ```
 */
export function escapeCSSURL(url: string, context: '"' | "'" | "", markup = false): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    let escape = false;
    if (c === 0x5c || c < 0x20 || c === 0x7f) escape = true;
    else if (c === 0x3c && (markup || url.charCodeAt(i + 1) === 0x2f)) escape = true;
    else if (c === 0x26 && markup) escape = true;
    else if (context === "") escape = c === 0x20 || c === 0x22 || c === 0x27 || c === 0x28 || c === 0x29;
    else escape = c === context.charCodeAt(0);
    if (!escape) continue;
    out += url.slice(from, i) + (c === 0 ? "\uFFFD" : `\\${c.toString(16)} `);
    from = i + 1;
  }
  return from === 0 ? url : out + url.slice(from);
}
