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

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
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

/** The text range inside an unquoted `url(…)` token, without the whitespace around it. */
function urlTokenRange(css: string, token: CSSToken): { start: number; end: number } {
  let i = token[2];
  const last = token[3];
  // The function name may contain escapes ("u\72l("), never an unescaped "(".
  while (i <= last && css.charCodeAt(i) !== 0x28) i += css.charCodeAt(i) === 0x5c ? 2 : 1;
  i++;
  while (i <= last && isWhitespace(css.charCodeAt(i))) i++;
  let end = css.charCodeAt(last) === 0x29 ? last : last + 1;
  // Trailing whitespace, unless it is an escaped space.
  while (end > i && isWhitespace(css.charCodeAt(end - 1)) && css.charCodeAt(end - 2) !== 0x5c) end--;
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
        const name = (token[4] as { value: string }).value.toLowerCase();
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
        functions.push((token[4] as { value: string }).value.toLowerCase());
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

/**
 * Escapes `url` for where it goes in CSS: inside a string delimited by
 * `context`, or (context "") inside an unquoted `url(…)`. Only what would
 * end or change the token is escaped, as `\` + hex + space
 * (https://drafts.csswg.org/cssom/#serialize-a-string does the same for
 * strings); `<` before `/` is escaped too, so that no `</style` can appear
 * in a `<style>` element.
 *
 * @example
 * ```ts
 * escapeCSSURL('a"b', '"'); // 'a\\22 b'
 * escapeCSSURL("a b(c)", ""); // "a\\20 b\\28 c\\29 "
 * ```
 */
export function escapeCSSURL(url: string, context: '"' | "'" | ""): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    let escape = false;
    if (c === 0x5c || c < 0x20 || c === 0x7f) escape = true;
    else if (c === 0x3c && url.charCodeAt(i + 1) === 0x2f) escape = true;
    else if (context === "") escape = c === 0x20 || c === 0x22 || c === 0x27 || c === 0x28 || c === 0x29;
    else escape = c === context.charCodeAt(0);
    if (!escape) continue;
    out += url.slice(from, i) + (c === 0 ? "\uFFFD" : `\\${c.toString(16)} `);
    from = i + 1;
  }
  return from === 0 ? url : out + url.slice(from);
}
