/**
 * The inputs the generator draws from: hand-picked hrefs for every corner
 * the issue lists, a seeded composer of random hrefs from URL parts, `<base>`
 * variants, and characters for legacy-encoding documents.
 *
 * Nothing here may contain U+0000, C1 controls or lone surrogates: these
 * strings go into markup, where the HTML parser would change those (markup
 * keeps every other character exactly, see `escapeAttribute` in
 * ./generate.ts). Inputs with such characters are set from script instead.
 *
 * @module
 */

import type { Random } from "./random.ts";

/** Hand-picked hrefs: relative forms, dot segments, backslashes, whitespace, non-ASCII, IDN, IP forms, ports, credentials, schemes, file:. */
export const handHrefs: readonly string[] = [
  // relative forms
  "", " ", "x", "x/", "./x", "../x", "../../x", "../../../../../x", "/x", "/x/", "//example.com/x", "?q", "?", "#f", "#", "x?q#f",
  ".", "..", "./", "../", "/.", "/..", "/./x", "/../x", "x/./y/../z", "x/%2e/y", "x/%2E%2E/y", ".%2e/x", "%2e%2e/x", "x/.../y",
  "x/..\\y", "x/.;/y", "./..", "x/..", "x/../", "/a/b/c/./../../g", "g;x=1/../y", "g?y/./x", "g#s/../x", ";x", "g;x", "a:b", "./a:b",
  // backslashes
  "\\x", "\\\\example.com\\x", "/\\example.com/x", "\\/example.com", "x\\y", "..\\x", "http:\\\\example.com\\x", "foo:\\\\x\\y",
  // whitespace
  "a\tb", "a\nb", "\t/x\n", " /x ", "x y", "x%20y", "\n\thttp://example.com/\n", "http://exa\tmple.com/", "h\tt\ntp://example.com/", "x\r\ny",
  // percent forms
  "x%zz", "x%", "%", "%41", "x%2fy", "x%5cy", "%c3%bc", "/%C3%BC",
  // non-ASCII
  "ü", "/ü?ü#ü", "/€", "x?ü", "#ü", "?a b", "#a b", "x#<>\"`", "x?'\"<>`", "x?a=1&b=2", "日本語/ページ", "?日本=語", "\u{1F600}", "x?\u{1F600}#\u{1F600}",
  "\u00A0x", "x\u00A0", "\u3000x", "\u200Bx", "\uFEFFx", "\uFFFFx",
  // IDN and hosts
  "//xn--nxasmq6b.com/", "//ÉXAMPLE.com/", "//faß.de/", "//bücher.de/", "//日本.jp/", "//exa mple.com/", "//ex%41mple.com/",
  "//ex%2541.com/", "//a..b/", "//-x-.com/", "//xn--/", "//ex\u00ADample.com/", "//ＥＸＡＭＰＬＥ.com/", "//exam\u200Bple.com/", "//x.com./",
  "//x_y.com/", "//x~y.com/", "//x%7Ey.com/", "//%zz/", "//a<b/", "//a^b/", "//a|b/", "//\u0661.com/", "//xn--a.com/", "//xn--zca.com/",
  "//ss.com/", "//ﬀ.com/", "//\u2024.com/", "//a\u3002b/",
  // ports
  "//x.com:/", "//x.com:0080/", "//x.com:80/", "//x.com:443/", "//x.com:65535/", "//x.com:65536/", "//x.com:-1/", "//x.com:8a/",
  "https://x.com:443/", "https://x.com:80/", "ws://x.com:80/", "wss://x.com:443/", "ftp://x.com:21/", "foo://x.com:80/",
  // IPv4
  "//0x7f.1/", "//127.1/", "//2130706433/", "//0177.0.0.1/", "//127.0.0.1./", "//1.2.3.4.5/", "//1.2.3.09/", "//256.0.0.1/",
  "//0x100000000/", "//4294967295/", "//1.0x/", "//0x/", "//09/", "//1.2.3.4.0x/", "//１２７.0.0.1/", "foo://0x7f.1/",
  // IPv6
  "//[::1]/", "//[0:0::1]/", "//[::ffff:127.0.0.1]/", "//[1:2:3:4:5:6:7:8]/", "//[::1]:81/", "//[::1/", "//[1::2::3]/",
  "//[::1.2.3.4.5]/", "//[::127.0.0.1]/", "//[1:0:0:2::3:0]/", "//[0:0:0:0:0:0:0:0]/", "//[FE80::A]/", "//[::%31]/", "foo://[::1]/",
  // credentials
  "//user:pass@host/", "//user@host/", "//:pass@host/", "//@host/", "//u:p@h:1/", "//u%40@h/", "//ü:ü@host/", "//a@b@c/",
  "//user:pa:ss@host/", "//us er@host/", "http://user@/", "http://@/", "foo://u:p@h/", "file://u@h/x",
  // special schemes
  "http://x/", "HTTP://X/", "hTtPs://x/", "ftp://x/", "ws://x/ü?ü#ü", "wss://x/?ü", "http:x", "http:/x", "https:///x", "http://",
  "http://x:/", "http:", "https:", "https:x?y#z", "h%74tp://x/",
  // file
  "file:///C:/x", "file://host/x", "file:x", "file:/x", "file:..", "file:c|/x", "file://localhost/x", "FILE:///tmp/ü?ü#ü",
  "file:///C|/x", "file:///./C:/x", "file://C:/x", "file:\\\\host\\share", "file:", "file:///", "C:/x", "c|/x", "/C:/x", "C:x",
  // non-special
  "foo://x/y", "foo:/x/../y", "foo:x", "foo://x:99/", "foo://ü/", "foo://exa mple/", "foo://x/ y", "foo://x/y?ü#ü", "sc:\\../",
  "foo:/.//x", "foo://", "foo:///x", "foo://x/..//y", "web+foo:bar", "git+ssh://x/y", "a:", "1x:/", "x1:/", "x-y.z+w:/", "-x:/",
  "non-special:opaque?q#f", "foo:a b c", "foo: a ", "foo:/ a ", "foo:?ü", "foo:#ü",
  // opaque and other schemes
  "mailto:a@b", "mailto:ü@b?subject=ü", "data:text/html,ü", "data:,a b", "javascript:void(0)", "javascript:alert\r(1)", "jav\rascript:void(0)",
  "jav\tascript:void(0)", "tel:+1 234", "urn:isbn:1", "blob:http://x/uuid", "blob:foo", "about:blank", "about:blank?x#y", "about:srcdoc",
  "view-source:http://x/", ":", ":x", "::", "http::@c:29",
];

/** Pieces for composed hrefs. */
const schemes: readonly (readonly [number, string])[] = [
  [40, ""],
  [14, "http"],
  [10, "https"],
  [3, "ws"],
  [2, "wss"],
  [3, "ftp"],
  [5, "file"],
  [4, "foo"],
  [2, "web+x"],
  [2, "sc"],
  [1, "HTTP"],
  [1, "Https"],
  [1, "FoO"],
  [3, "mailto"],
  [2, "data"],
  [2, "javascript"],
  [1, "urn"],
  [1, "about"],
];
const hosts: readonly string[] = [
  "example.com", "EXAMPLE.COM", "example.com.", "bücher.de", "xn--bcher-kva.de", "faß.de", "日本.jp", "ＥＸＡＭＰＬＥ.com", "127.0.0.1",
  "0x7f.1", "2130706433", "0177.1", "1.2.3.4.5", "256.1.1.1", "[::1]", "[::ffff:1.2.3.4]", "[1:0::]", "[FEDC:ba98::]",
  "ex%41mple", "a..b", "", "localhost", "LOCALHOST", "x_y", "ex\u00ADample.com", "1.2.3", "0.0.0.0", "xn--nxasmq6b", "a.b.c.d.e",
];
const userinfos: readonly (readonly [number, string])[] = [
  [14, ""],
  [1, "user@"],
  [1, "user:pass@"],
  [1, ":pass@"],
  [1, "@"],
  [1, "u%40v@"],
  [1, "ü:€@"],
  [1, "a b:c d@"],
];
const ports: readonly (readonly [number, string])[] = [
  [12, ""],
  [1, ":80"],
  [1, ":443"],
  [1, ":8080"],
  [1, ":0"],
  [1, ":65535"],
  [1, ":65536"],
  [1, ":"],
  [1, ":08"],
  [1, ":x"],
  [1, ":21"],
];
const segments: readonly string[] = [
  "a", "b.html", "c", ".", "..", "%2e", "%2E%2e", ".%2E", "ü", "€", "a b", "%20", "%zz", "a\\b", "", "日本", "a:b", "C:", "x;y",
  "~u", "%41", "'\"<>`", "{}", "^", "[x]", "@", "=", "$", "\u{1F600}", "%C3%BC", "a%2Fb",
];
const queries: readonly string[] = [
  "q=1", "a b", "ü", "'\"<>`", "%", "q=%zz", "a=1&b=2", "?", "é=è", "日本", "€", "{}", "\\", "^", "%C3%BC", "\u{1F600}", "a=b c#",
];
const fragments: readonly string[] = ["f", "a b", "ü", "<>`\"", "#", "%20", "日本", "€", "x/../y", "{}", "^|", "\u{1F600}", "'"];

function pathPart(random: Random, max: number): string {
  const n = random.int(max + 1);
  const parts: string[] = [];
  for (let i = 0; i < n; i++) parts.push(random.pick(segments));
  return parts.join(random.chance(0.1) ? "\\" : "/");
}

/** A composed href from random parts, with random noise (whitespace, case). */
export function randomHref(random: Random): string {
  const scheme = random.weighted(schemes);
  let href: string;
  const lower = scheme.toLowerCase();
  const query = random.chance(0.35) ? `?${random.pick(queries)}` : "";
  const fragment = random.chance(0.25) ? `#${random.pick(fragments)}` : "";
  if (scheme === "") {
    const form = random.weighted<string>([
      [5, "path"],
      [3, "dot"],
      [2, "dotdot"],
      [4, "absolute"],
      [3, "network"],
      [2, "query"],
      [2, "fragment"],
      [1, "backslash"],
    ]);
    switch (form) {
      case "path":
        href = pathPart(random, 3) || "x";
        break;
      case "dot":
        href = `./${pathPart(random, 2)}`;
        break;
      case "dotdot":
        href = `${"../".repeat(1 + random.int(4))}${pathPart(random, 2)}`;
        break;
      case "absolute":
        href = `/${pathPart(random, 3)}`;
        break;
      case "network":
        href = `//${random.weighted(userinfos)}${random.pick(hosts)}${random.weighted(ports)}/${pathPart(random, 2)}`;
        break;
      case "query":
        href = "";
        break;
      case "fragment":
        href = "";
        break;
      default:
        href = `\\${random.chance(0.5) ? "\\" : ""}${random.pick(hosts)}\\${pathPart(random, 2)}`;
    }
  } else if (lower === "mailto") {
    href = `${scheme}:${random.pick(["a@b", "ü@b", "a b@c", ""])}`;
  } else if (lower === "data") {
    href = `${scheme}:${random.pick(["text/plain,ü", ",x", "text/html;charset=utf-8,<p>", "/,x"])}`;
  } else if (lower === "javascript") {
    href = `${scheme}:${random.pick(["void(0)", "void 'ü'", "/,x", "//x"])}`;
  } else if (lower === "urn" || lower === "about") {
    href = `${scheme}:${random.pick(["blank", "x:y", "srcdoc", "a b"])}`;
  } else {
    const slashes = random.weighted<string>([
      [8, "//"],
      [1, "/"],
      [1, ""],
      [1, "///"],
      [1, "\\\\"],
    ]);
    const authority = slashes === "//" || slashes === "\\\\" ? `${random.weighted(userinfos)}${random.pick(hosts)}${random.weighted(ports)}` : "";
    href = `${scheme}:${slashes}${authority}/${pathPart(random, 3)}`;
  }
  href += query + fragment;
  // Noise: ASCII tab or newline anywhere (the parser strips them), leading/trailing spaces.
  if (random.chance(0.08)) {
    const at = random.int(href.length + 1);
    href = href.slice(0, at) + random.pick(["\t", "\n", "\r"]) + href.slice(at);
  }
  if (random.chance(0.05)) href = ` ${href}`;
  if (random.chance(0.05)) href = `${href} `;
  return href;
}

/** Where a `<base>` goes. */
export type BasePlace = "head" | "body" | "template" | "svg" | "noscript" | "math";

/** A `<base>` variant: one or more base elements (in source order). */
export interface BaseVariant {
  readonly name: string;
  readonly bases: readonly { readonly href: string | null; readonly place: BasePlace; readonly target?: string }[];
}

/** The `<base>` configurations the issue lists, and more. */
export const baseVariants: readonly BaseVariant[] = [
  { name: "none", bases: [] },
  { name: "relative", bases: [{ href: "sub/", place: "head" }] },
  { name: "relative-up", bases: [{ href: "../up/x", place: "head" }] },
  { name: "root", bases: [{ href: "/root/", place: "head" }] },
  { name: "absolute", bases: [{ href: "http://example.com/a/b", place: "head" }] },
  { name: "absolute-full", bases: [{ href: "https://u:p@example.org:8443/dir/file?q#h", place: "head" }] },
  { name: "absolute-no-slash", bases: [{ href: "http://example.com", place: "head" }] },
  { name: "empty", bases: [{ href: "", place: "head" }] },
  { name: "whitespace", bases: [{ href: "  \t\n ", place: "head" }] },
  { name: "spaces-around", bases: [{ href: " /sp/ ", place: "head" }] },
  { name: "invalid-port", bases: [{ href: "//test:test", place: "head" }] },
  { name: "invalid-ipv6", bases: [{ href: "http://[::1", place: "head" }] },
  { name: "invalid-then-valid", bases: [{ href: "http://a:b/", place: "head" }, { href: "https://example.com/", place: "head" }] },
  { name: "data-then-valid", bases: [{ href: "data:/,test", place: "head" }, { href: "https://example.com/", place: "head" }] },
  { name: "javascript-then-valid", bases: [{ href: "javascript:/,test", place: "head" }, { href: "https://example.com/", place: "head" }] },
  { name: "several", bases: [{ href: "a/", place: "head" }, { href: "http://example.com/", place: "head" }, { href: "b/", place: "body" }] },
  { name: "target-only-then-href", bases: [{ href: null, place: "head", target: "_blank" }, { href: "/t/", place: "head" }] },
  { name: "in-body", bases: [{ href: "/body/", place: "body" }] },
  { name: "head-and-body", bases: [{ href: "/head/", place: "head" }, { href: "/body/", place: "body" }] },
  { name: "in-template", bases: [{ href: "/template/", place: "template" }] },
  { name: "template-then-real", bases: [{ href: "/template/", place: "template" }, { href: "/real/", place: "head" }] },
  { name: "svg", bases: [{ href: "/svg/", place: "svg" }] },
  { name: "svg-then-real", bases: [{ href: "/svg/", place: "svg" }, { href: "/real/", place: "body" }] },
  { name: "math", bases: [{ href: "/math/", place: "math" }] },
  { name: "noscript", bases: [{ href: "/noscript/", place: "noscript" }] },
  { name: "non-special", bases: [{ href: "foo://host/dir/", place: "head" }] },
  { name: "non-special-no-host", bases: [{ href: "foo:/dir/file", place: "head" }] },
  { name: "opaque", bases: [{ href: "mailto:someone@example.com", place: "head" }] },
  { name: "file", bases: [{ href: "file:///C:/dir/", place: "head" }] },
  { name: "file-host", bases: [{ href: "file://server/share/", place: "head" }] },
  { name: "query-non-ascii", bases: [{ href: "?ü=ÿ", place: "head" }] },
  { name: "ws", bases: [{ href: "ws://example.com/socket/", place: "head" }] },
  { name: "protocol-relative", bases: [{ href: "//example.net/p/", place: "head" }] },
  { name: "backslashes", bases: [{ href: "\\\\example.com\\x\\", place: "head" }] },
  { name: "tab-newline", bases: [{ href: "http://ex\tample.com/\nd/", place: "head" }] },
  { name: "ipv4-hex", bases: [{ href: "http://0x7f.1/ip/", place: "head" }] },
  { name: "ipv6", bases: [{ href: "http://[0:0::1]:8080/v6/", place: "head" }] },
  { name: "idn", bases: [{ href: "http://bücher.example/ü/", place: "head" }] },
  { name: "fragment-only", bases: [{ href: "#frag", place: "head" }] },
  { name: "query-only", bases: [{ href: "?q=1", place: "head" }] },
  { name: "dot", bases: [{ href: ".", place: "head" }] },
  { name: "dotdot", bases: [{ href: "..", place: "head" }] },
  { name: "about-blank", bases: [{ href: "about:blank", place: "head" }] },
  { name: "blob", bases: [{ href: "blob:http://example.com/uuid", place: "head" }] },
  { name: "special-credentials-port", bases: [{ href: "http://user:pw@127.0.0.1:1/c/", place: "head" }] },
];

/** Characters for legacy-encoding documents: for each encoding, some it encodes, some it cannot, and ones whose bytes are ASCII. */
export const encodingCharacters: Readonly<Record<string, readonly string[]>> = {
  "windows-1252": ["ÿ", "ß", "å", "†", "€", "Ÿ", "œ", "ü"],
  "windows-1251": ["Ж", "я", "ё", "Ђ", "€", "№"],
  Shift_JIS: ["日本", "ｱ", "¥", "‾", "−", "ー", "〜", "♪"],
  "EUC-KR": ["한국", "가", "똠", "€", "㉮"],
  gb18030: ["中文", "€", "\uE5E5", "\uE7C7", "¤", "\u{20000}", "ḿ"],
  GBK: ["中文", "€", "\uE5E5", "ḿ", "¤"],
  Big5: ["中文", "╔", "兀", "\u{2A6DE}", "€"],
  "ISO-2022-JP": ["日本", "ｱ", "¥", "‾", "−"],
  "UTF-16LE": ["ü", "日本", "\u{1F600}"],
  "UTF-8": ["ü", "日本", "\u{1F600}"],
};

/** Characters every document also tries: encodable almost nowhere. */
export const otherCharacters: readonly string[] = ["ü", "é", "ÿ", "Ω", "☃", "\u{1F600}", "\uFFFD", "\uFFFF"];
