/**
 * A `Content-Type` read as the MIME Sniffing Standard parses a MIME type:
 * its essence (is it an HTML page?) and its `charset` (a response's
 * encoding, as the HTML parser's "transport layer" gives it).
 *
 * https://mimesniff.spec.whatwg.org/#parsing-a-mime-type
 *
 * @module
 */

/** https://mimesniff.spec.whatwg.org/#http-token-code-point */
const HTTP_TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
/** https://mimesniff.spec.whatwg.org/#http-quoted-string-token-code-point */
const HTTP_QUOTED_STRING_TOKEN = /^[\t\u0020-\u007e\u0080-\u00ff]*$/;
/** https://fetch.spec.whatwg.org/#http-whitespace, at either end. */
const LEADING_WHITESPACE = /^[\t\n\r ]+/;
const TRAILING_WHITESPACE = /[\t\n\r ]+$/;

/**
 * A parsed MIME type: its essence ("type/subtype", ASCII lower case) and
 * its parameters (names in lower case, first occurrence wins).
 *
 * @example
 * ```ts
 * const type: MIMEType = { essence: "text/html", parameters: new Map([["charset", "utf-8"]]) };
 * ```
 */
export interface MIMEType {
  readonly essence: string;
  readonly parameters: ReadonlyMap<string, string>;
}

/**
 * https://mimesniff.spec.whatwg.org/#parse-a-mime-type — `input` as a MIME
 * type, or null (failure).
 *
 * @example
 * ```ts
 * parseMIMEType('Text/HTML; Charset="Shift_JIS"; charset=utf-8')?.parameters.get("charset"); // "Shift_JIS"
 * parseMIMEType("text/html;charset=")?.parameters.size; // 0
 * parseMIMEType("html"); // null
 * ```
 */
export function parseMIMEType(input: string): MIMEType | null {
  // 1. "Remove any leading and trailing HTTP whitespace from input."
  const s = input.replace(LEADING_WHITESPACE, "").replace(TRAILING_WHITESPACE, "");
  // 2–5. type "/" subtype, each made of HTTP token code points.
  const slash = s.indexOf("/");
  if (slash === -1) return null;
  const type = s.slice(0, slash);
  let end = s.indexOf(";", slash + 1);
  if (end === -1) end = s.length;
  const subtype = s.slice(slash + 1, end).replace(TRAILING_WHITESPACE, "");
  if (!HTTP_TOKEN.test(type) || !HTTP_TOKEN.test(subtype)) return null;
  const parameters = new Map<string, string>();
  // 11. The parameters, each after a ";".
  let position = end;
  while (position < s.length) {
    position++;
    while (position < s.length && /[\t\n\r ]/.test(s[position]!)) position++;
    let stop = position;
    while (stop < s.length && s[stop] !== ";" && s[stop] !== "=") stop++;
    // Tested as a token before it is lower-cased: toLowerCase on a token (ASCII) is ASCII lowercase.
    const name = s.slice(position, stop);
    position = stop;
    if (position < s.length) {
      if (s[position] === ";") continue;
      position++;
    }
    if (position >= s.length) break;
    let value: string;
    if (s[position] === '"') {
      [value, position] = collectQuotedString(s, position);
      // "Collect a sequence of code points that are not U+003B (;)", ignored.
      while (position < s.length && s[position] !== ";") position++;
    } else {
      stop = s.indexOf(";", position);
      if (stop === -1) stop = s.length;
      value = s.slice(position, stop).replace(TRAILING_WHITESPACE, "");
      position = stop;
      if (value === "") continue;
    }
    if (!HTTP_TOKEN.test(name) || !HTTP_QUOTED_STRING_TOKEN.test(value)) continue;
    const lower = name.toLowerCase();
    if (!parameters.has(lower)) parameters.set(lower, value);
  }
  return { essence: `${type}/${subtype}`.toLowerCase(), parameters };
}

/**
 * https://fetch.spec.whatwg.org/#collect-an-http-quoted-string with
 * extract-value true: the value of the quoted string at `start` (a `"`),
 * and the position after it.
 */
function collectQuotedString(s: string, start: number): [string, number] {
  let value = "";
  let position = start + 1;
  while (position < s.length) {
    const c = s[position]!;
    position++;
    if (c === '"') break;
    if (c === "\\") {
      if (position >= s.length) {
        value += "\\";
        break;
      }
      value += s[position]!;
      position++;
    } else {
      value += c;
    }
  }
  return [value, position];
}

/**
 * Whether a response with this MIME type is a page whose fragments name
 * elements: an HTML MIME type ("text/html"), or XHTML.
 *
 * https://mimesniff.spec.whatwg.org/#html-mime-type
 *
 * Deviation: an XHTML page (application/xhtml+xml) is read by the HTML
 * parser, as the links layer reads every page; its IDs and `a` names are
 * the same unless it is not well-formed, where a browser shows an error.
 *
 * @example
 * ```ts
 * isHTMLPage(parseMIMEType("text/html; charset=utf-8")); // true
 * isHTMLPage(parseMIMEType("application/pdf")); // false
 * isHTMLPage(null); // false
 * ```
 */
export function isHTMLPage(type: MIMEType | null): boolean {
  return type !== null && (type.essence === "text/html" || type.essence === "application/xhtml+xml");
}
