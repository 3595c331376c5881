/**
 * The encoder side of the Encoding Standard's indexes: for a code point, its
 * pointer in an index (https://encoding.spec.whatwg.org/#indexes).
 *
 * No index is shipped: each is derived on first use by running the conformant
 * decoders of `@exodus/bytes` over every pointer and inverting the result,
 * with the standard's encoder-only rules (the first pointer wins; Shift_JIS
 * skips 8272–8835; Big5 skips pointers below 5024 and takes the last pointer
 * for six code points).
 *
 * @module
 */

import { createMultibyteDecoder } from "@exodus/bytes/multi-byte.js";
import { createSinglebyteDecoder } from "@exodus/bytes/single-byte.js";

/**
 * Pointers by code point: `bmp[codePoint]` is pointer + 1 (0: none) for code
 * points up to U+FFFF, `astral` holds the few above.
 *
 * @example
 * ```ts
 * eucKRPointers().bmp[0xac00]; // 9027: pointer 9026, plus one
 * ```
 */
export interface PointerTable {
  readonly bmp: Uint16Array;
  readonly astral: ReadonlyMap<number, number>;
}

/**
 * https://encoding.spec.whatwg.org/#index-pointer (or the variant the table
 * was built for): the pointer for `codePoint`, or -1 for null.
 *
 * @example
 * ```ts
 * indexPointer(eucKRPointers(), 0xac00); // 9026 (bytes B0 A1)
 * indexPointer(eucKRPointers(), 0x00e9); // -1
 * ```
 */
export function indexPointer(table: PointerTable, codePoint: number): number {
  if (codePoint <= 0xffff) return table.bmp[codePoint]! - 1;
  return table.astral.get(codePoint) ?? -1;
}

/**
 * The code point of each of `count` pointers from `start` (-1 where the
 * pointer is not in the index).
 *
 * Optimisation: one decoder call for the whole index. Each sequence is
 * followed by U+000A, which decodes as itself and is in no sequence, so the
 * output splits back into one piece per pointer: one code point, or U+FFFD
 * (and any restored ASCII byte) when not in the index. No two-byte index maps
 * a pointer to U+FFFD; the one gb18030 four-byte sequence that does decodes
 * without an error.
 */
function decodePointers(
  decoderName: string,
  start: number,
  count: number,
  width: 2 | 4,
  bytesOf: (pointer: number, bytes: Uint8Array, at: number) => void,
): Int32Array {
  const stride = width + 1;
  const bytes = new Uint8Array(count * stride);
  for (let k = 0; k < count; k++) {
    bytesOf(start + k, bytes, k * stride);
    bytes[k * stride + width] = 0x0a;
  }
  const text = createMultibyteDecoder(decoderName, true)(bytes);
  const codePoints = new Int32Array(count).fill(-1);
  let position = 0;
  for (let k = 0; k < count; k++) {
    const newline = text.indexOf("\n", position);
    if (newline < 0) throw new Error(`docbase: unexpected ${decoderName} decoder output`);
    const codePoint = text.codePointAt(position)!;
    const length = codePoint > 0xffff ? 2 : 1;
    if (newline - position === length && (codePoint !== 0xfffd || width === 4)) codePoints[k] = codePoint;
    position = newline + 1;
  }
  return codePoints;
}

/** Inverts decoded pointers into a {@link PointerTable}: the first pointer wins, but for `lastPointerWins`. */
function invert(
  codePoints: Int32Array,
  start: number,
  skip: (pointer: number) => boolean = () => false,
  lastPointerWins: ReadonlySet<number> = new Set(),
): PointerTable {
  const bmp = new Uint16Array(0x10000);
  const astral = new Map<number, number>();
  for (let k = 0; k < codePoints.length; k++) {
    const codePoint = codePoints[k]!;
    const pointer = start + k;
    if (codePoint < 0 || skip(pointer)) continue;
    const overwrite = lastPointerWins.has(codePoint);
    if (codePoint <= 0xffff) {
      if (bmp[codePoint] === 0 || overwrite) bmp[codePoint] = pointer + 1;
    } else if (!astral.has(codePoint) || overwrite) {
      astral.set(codePoint, pointer);
    }
  }
  return { bmp, astral };
}

function cached<T>(build: () => T): () => T {
  let value: T | undefined;
  return () => (value ??= build());
}

// --- index jis0208 ---------------------------------------------------------

/**
 * index jis0208, read through the Shift_JIS decoder (the only one that
 * reaches every pointer), without 8836–10715, which it maps to Private Use
 * code points algorithmically.
 */
const jis0208CodePoints = cached(() =>
  decodePointers("shift_jis", 0, 11104, 2, (pointer, bytes, at) => {
    const lead = (pointer / 188) | 0;
    const trail = pointer % 188;
    bytes[at] = lead + (lead < 0x1f ? 0x81 : 0xc1);
    bytes[at + 1] = trail + (trail < 0x3f ? 0x40 : 0x41);
  }),
);

const isEUDC = (pointer: number): boolean => pointer >= 8836 && pointer <= 10715;

/**
 * https://encoding.spec.whatwg.org/#index-pointer in index jis0208 (EUC-JP
 * and ISO-2022-JP encoders).
 * @example
 * ```ts
 * indexPointer(jis0208Pointers(), 0x6f22); // 1818 (EUC-JP B4 C1)
 * ```
 */
export const jis0208Pointers = cached(() => invert(jis0208CodePoints(), 0, isEUDC));

/**
 * https://encoding.spec.whatwg.org/#index-shift_jis-pointer — index jis0208
 * without pointers 8272–8835 (duplicates of later IBM extensions).
 *
 * @example
 * ```ts
 * indexPointer(jis0208Pointers(), 0x7e8a); // 8272 (first pointer)
 * indexPointer(shiftJISPointers(), 0x7e8a); // 10744 (Shift_JIS FA 5C)
 * ```
 */
export const shiftJISPointers = cached(() =>
  invert(jis0208CodePoints(), 0, (pointer) => isEUDC(pointer) || (pointer >= 8272 && pointer <= 8835)),
);

// --- index EUC-KR ----------------------------------------------------------

/**
 * https://encoding.spec.whatwg.org/#index-pointer in index EUC-KR (pointers 0–23749).
 *
 * @example
 * ```ts
 * indexPointer(eucKRPointers(), 0x2020); // 6416 (bytes A2 D3)
 * ```
 */
export const eucKRPointers = cached(() =>
  invert(
    decodePointers("euc-kr", 0, 23750, 2, (pointer, bytes, at) => {
      bytes[at] = ((pointer / 190) | 0) + 0x81;
      bytes[at + 1] = (pointer % 190) + 0x41;
    }),
    0,
  ),
);

// --- index Big5 ------------------------------------------------------------

/** (0xA1 - 0x81) × 157: the Big5 encoder ignores the pointers below (HKSCS). */
const big5FirstEncoderPointer = (0xa1 - 0x81) * 157;

/**
 * https://encoding.spec.whatwg.org/#index-big5-pointer — without the HKSCS
 * pointers; the *last* pointer for U+2550, U+255E, U+2561, U+256A, U+5341
 * and U+5345.
 *
 * @example
 * ```ts
 * indexPointer(big5Pointers(), 0x2550); // 18991 (its last pointer)
 * indexPointer(big5Pointers(), 0x00ca); // -1 (only below pointer 5024, HKSCS)
 * ```
 */
export const big5Pointers = cached(() => {
  const count = 19782 - big5FirstEncoderPointer;
  const codePoints = decodePointers("big5", big5FirstEncoderPointer, count, 2, (pointer, bytes, at) => {
    const trail = pointer % 157;
    bytes[at] = ((pointer / 157) | 0) + 0x81;
    bytes[at + 1] = trail + (trail < 0x3f ? 0x40 : 0x62);
  });
  return invert(codePoints, big5FirstEncoderPointer, undefined, new Set([0x2550, 0x255e, 0x2561, 0x256a, 0x5341, 0x5345]));
});

// --- index gb18030 and index gb18030 ranges --------------------------------

/**
 * https://encoding.spec.whatwg.org/#index-pointer in index gb18030 (pointers 0–23939).
 *
 * @example
 * ```ts
 * indexPointer(gb18030Pointers(), 0x4e2d); // 16293 (bytes D6 D0)
 * indexPointer(gb18030Pointers(), 0xe78d); // -1 (GB18030-2022: A6 D9 is U+FE10 now)
 * ```
 */
export const gb18030Pointers = cached(() =>
  invert(
    decodePointers("gb18030", 0, 23940, 2, (pointer, bytes, at) => {
      const trail = pointer % 190;
      bytes[at] = ((pointer / 190) | 0) + 0x81;
      bytes[at + 1] = trail + (trail < 0x3f ? 0x40 : 0x41);
    }),
    0,
  ),
);

/**
 * index gb18030 ranges as parallel arrays sorted by code point: each range's
 * first code point and its pointer. Derived from the four-byte sequences of
 * pointers 0–39419 cut into runs; pointer 7457 (U+E7C7) is left out, as the
 * standard special-cases it.
 *
 * @example
 * ```ts
 * const { codePoints, pointers } = gb18030Ranges();
 * codePoints[0]; // 0x80
 * pointers[0]; // 0
 * ```
 */
export interface GB18030Ranges {
  readonly codePoints: Int32Array;
  readonly pointers: Int32Array;
}

/**
 * {@link GB18030Ranges}, built on first use.
 *
 * @example
 * ```ts
 * gb18030Ranges().codePoints[0]; // 0x80 (pointer 0)
 * gb18030Ranges().codePoints.length; // 207, as in index-gb18030-ranges.txt
 * ```
 */
export const gb18030Ranges = cached((): GB18030Ranges => {
  const count = 39420;
  const decoded = decodePointers("gb18030", 0, count, 4, (pointer, bytes, at) => {
    bytes[at] = ((pointer / 12600) | 0) + 0x81;
    bytes[at + 1] = (((pointer % 12600) / 1260) | 0) + 0x30;
    bytes[at + 2] = (((pointer % 1260) / 10) | 0) + 0x81;
    bytes[at + 3] = (pointer % 10) + 0x30;
  });
  const codePoints: number[] = [];
  const pointers: number[] = [];
  let previous = -2;
  for (let pointer = 0; pointer < count; pointer++) {
    if (pointer === 7457) continue;
    const codePoint = decoded[pointer]!;
    if (codePoint < 0) throw new Error(`docbase: gb18030 four-byte pointer ${pointer} did not decode`);
    if (codePoint !== previous + 1 || pointer === 7458) {
      if (codePoints.length > 0 && codePoint <= codePoints[codePoints.length - 1]!) {
        throw new Error("docbase: gb18030 ranges are not in code point order");
      }
      codePoints.push(codePoint);
      pointers.push(pointer);
    }
    previous = codePoint;
  }
  return { codePoints: Int32Array.from(codePoints), pointers: Int32Array.from(pointers) };
});

/**
 * https://encoding.spec.whatwg.org/#index-gb18030-ranges-pointer
 *
 * @example
 * ```ts
 * gb18030RangesPointer(0xe7c7); // 7457
 * gb18030RangesPointer(0x10000); // 189000
 * ```
 */
export function gb18030RangesPointer(codePoint: number): number {
  // 1. If codePoint is U+E7C7, then return pointer 7457.
  if (codePoint === 0xe7c7) return 7457;
  // The last entry, pointer 189000 for U+10000, covers everything above the BMP.
  if (codePoint >= 0x10000) return 189000 + codePoint - 0x10000;
  // 2. Let offset be the last code point in index gb18030 ranges that is less
  // than or equal to codePoint and let pointerOffset be its pointer.
  const { codePoints, pointers } = gb18030Ranges();
  let low = 0;
  let high = codePoints.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (codePoints[middle]! <= codePoint) low = middle;
    else high = middle - 1;
  }
  // 3. Return pointerOffset + codePoint − offset.
  return pointers[low]! + codePoint - codePoints[low]!;
}

// --- index ISO-2022-JP katakana --------------------------------------------

/**
 * index ISO-2022-JP katakana: U+FF61–U+FF9F to full-width katakana; pointer = code point − 0xFF61.
 *
 * @example
 * ```ts
 * iso2022JPKatakana[0xff71 - 0xff61]; // "ア" (for U+FF71)
 * ```
 */
export const iso2022JPKatakana =
  "。「」、・ヲァィゥェォャュョッーアイウエオカキクケコサシスセソタチツテトナニヌネノハヒフヘホマミムメモヤユヨラリルレロワン゛゜";

// --- index single-byte -----------------------------------------------------

const singleByteTables = new Map<string, Uint8Array>();

/**
 * https://encoding.spec.whatwg.org/#index-pointer in the index single-byte
 * of an encoding, as a table from code point to byte (0: not in the index).
 * @example
 * ```ts
 * singleByteEncoderTable("windows-1252")[0x20ac]; // 0x80
 * ```
 */
export function singleByteEncoderTable(encoding: string): Uint8Array {
  let table = singleByteTables.get(encoding);
  if (table !== undefined) return table;
  const highBytes = new Uint8Array(128);
  for (let i = 0; i < 128; i++) highBytes[i] = 0x80 + i;
  const decoded = createSinglebyteDecoder(encoding.toLowerCase(), true)(highBytes);
  if (decoded.length !== 128) throw new Error(`docbase: unexpected ${encoding} decoder output`);
  let max = 0x7f;
  for (let i = 0; i < 128; i++) {
    const codePoint = decoded.charCodeAt(i);
    if (codePoint !== 0xfffd && codePoint > max) max = codePoint;
  }
  table = new Uint8Array(max + 1);
  for (let i = 0; i < 128; i++) {
    const codePoint = decoded.charCodeAt(i);
    // The index pointer is the first pointer for the code point.
    if (codePoint !== 0xfffd && table[codePoint] === 0) table[codePoint] = 0x80 + i;
  }
  singleByteTables.set(encoding, table);
  return table;
}
