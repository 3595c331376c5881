/**
 * Turns generated markup into the bytes a server sends in a legacy
 * encoding: each character the encoding can carry (and that decodes back to
 * itself) as its bytes, every other one as a numeric character reference,
 * as a browser's form encoder would. So the document the browser parses has
 * exactly the attribute values the generator meant, in real legacy bytes.
 *
 * The encoders are @exodus/bytes's, which follow the Encoding Standard.
 *
 * @module
 */

import { createMultibyteDecoder, createMultibyteEncoder } from "@exodus/bytes/multi-byte.js";
import { createSinglebyteDecoder, createSinglebyteEncoder } from "@exodus/bytes/single-byte.js";

type Encoder = (text: string) => Uint8Array;
type Decoder = (bytes: Uint8Array) => string;

const multiByte = new Set(["shift_jis", "euc-kr", "gb18030", "gbk", "big5", "iso-2022-jp", "euc-jp"]);

function codecs(encoding: string): { encode: Encoder; decode: Decoder } {
  const name = encoding.toLowerCase();
  if (multiByte.has(name)) {
    return { encode: createMultibyteEncoder(name, { mode: "fatal" }), decode: createMultibyteDecoder(name) };
  }
  return { encode: createSinglebyteEncoder(name, { mode: "fatal" }), decode: createSinglebyteDecoder(name) };
}

/**
 * The bytes of `html` in `encoding` (an Encoding Standard name). UTF-8 and
 * UTF-16LE carry everything; UTF-16LE gets a byte order mark.
 */
export function encodeDocument(html: string, encoding: string): Uint8Array {
  const name = encoding.toLowerCase();
  if (name === "utf-8") return new TextEncoder().encode(html);
  if (name === "utf-16le") {
    const body = Buffer.from(html, "utf16le");
    return new Uint8Array(Buffer.concat([Buffer.from([0xff, 0xfe]), body]));
  }
  const { encode, decode } = codecs(name);
  const chunks: Uint8Array[] = [];
  // Characters are checked one by one but encoded in runs: ISO-2022-JP must not
  // switch back to ASCII and out again between two characters (its decoder
  // turns an escape sequence right after another one into U+FFFD).
  let ascii = "";
  let run = "";
  const flushASCII = (): void => {
    if (ascii !== "") chunks.push(new TextEncoder().encode(ascii));
    ascii = "";
  };
  const flushRun = (): void => {
    if (run !== "") chunks.push(encode(run));
    run = "";
  };
  for (const ch of html) {
    const code = ch.codePointAt(0) as number;
    if (code < 0x80 && !(name === "iso-2022-jp" && (code === 0x0e || code === 0x0f || code === 0x1b))) {
      flushRun();
      ascii += ch;
      continue;
    }
    let encodable = false;
    try {
      // A character whose bytes decode to something else (Shift_JIS ¥ → 0x5C → "\\") must go as a reference.
      encodable = decode(encode(ch)) === ch;
    } catch {
      encodable = false;
    }
    if (encodable) {
      flushASCII();
      run += ch;
    } else {
      flushRun();
      ascii += `&#${code};`;
    }
  }
  flushRun();
  flushASCII();
  const total = chunks.reduce((n, c) => n + c.length, 0);
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** The text of `bytes` in `encoding` (an Encoding Standard name), with the Encoding Standard's decoders (Node's ICU ones differ for some legacy encodings); a UTF-8 or UTF-16LE byte order mark is dropped. */
export function decodeDocument(bytes: Uint8Array, encoding: string): string {
  const name = encoding.toLowerCase();
  if (name === "utf-8" || name === "utf-16le" || name === "utf-16be") return new TextDecoder(name).decode(bytes);
  return codecs(name).decode(bytes);
}
