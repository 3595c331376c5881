/**
 * The HTML Standard's tokenizer over a whole document held in one string:
 * it drives parse5's tree construction (parse5's `Parser`, with any tree
 * adapter) in place of parse5's own tokenizer, and notes where each start
 * tag and each of its attributes is in the source.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#tokenization
 *
 * Optimisation: parse5's tokenizer takes every code point through its
 * state machine one at a time (a call, a state switch, a preprocessor step
 * each). The whole input is here at once, so this one reads runs: a run
 * of text, a tag with its attributes, a comment or a doctype is read in
 * one go with tight loops and native scans. The tokens are parse5's own shapes, and
 * they are the tokens parse5's tokenizer emits — the same characters, in
 * character tokens grouped as parse5 groups them (whitespace, U+0000, and
 * other characters; CR and CR LF read as LF) — so the tree is the one
 * parse5 builds, but for the one deviation below. The tree construction
 * stage changes the tokenizer's state (RCDATA, RAWTEXT, script data,
 * PLAINTEXT) while it handles a start tag, as the standard says; those
 * states are read after each start tag is emitted.
 *
 * Parse errors are not reported (nothing here needs them); the states that
 * only report errors (the comment less-than sign states) are folded into
 * the states around them, which give the same tokens.
 *
 * Deviation from parse5: parse5 reads `<![CDATA[` as a CDATA section only
 * when the adjusted current node is a foreign element that is not an
 * integration point; the standard's markup declaration open state asks only
 * "if there is an adjusted current node and it is not an element in the
 * HTML namespace", so inside an SVG `foreignObject`, `desc` or `title`, or
 * a MathML text integration point, it is a CDATA section here too.
 *
 * Deviation from the standard: since 2026 (whatwg/html#12118) `<?target
 * data>` is a processing instruction. parse5's tree construction has no
 * processing instruction token or node, so it is read, as before, as a
 * bogus comment; the same characters are consumed either way (a `>` ends
 * both), so no element, attribute or link differs.
 *
 * @module
 */

import { html as htmlSpec, Token, TokenizerMode, type Parser, type TreeAdapterTypeMap } from "parse5";
import { isASCIIAlpha, isASCIIWhitespace } from "../core/infra.ts";
import { catalogue } from "./catalogue.ts";
import { CharacterReferenceReader } from "./character-references.ts";
import { IGNORE_MARKS } from "./ignore-marks.ts";

type Attribute = Token.Attribute;

const { getTagID, TAG_ID } = htmlSpec;

const CHARACTER = Token.TokenType.CHARACTER;
const NULL_CHARACTER = Token.TokenType.NULL_CHARACTER;
const WHITESPACE_CHARACTER = Token.TokenType.WHITESPACE_CHARACTER;
const START_TAG = Token.TokenType.START_TAG;
const END_TAG = Token.TokenType.END_TAG;
const COMMENT = Token.TokenType.COMMENT;
const DOCTYPE = Token.TokenType.DOCTYPE;
const EOF = Token.TokenType.EOF;
/** No character token pending. */
const NO_CHARACTERS = -1;

// The states the tree construction stage can switch the tokenizer to, with
// parse5's numbers (the parser writes them to `state`).
const DATA: number = TokenizerMode.DATA;
const RCDATA: number = TokenizerMode.RCDATA;
const RAWTEXT: number = TokenizerMode.RAWTEXT;
const SCRIPT_DATA: number = TokenizerMode.SCRIPT_DATA;
const PLAINTEXT: number = TokenizerMode.PLAINTEXT;

// How an attribute's value is written: no value, unquoted, `"…"` or `'…'` (the low two bits of its flags).
const NO_VALUE = 0;
const UNQUOTED = 1;
const DOUBLE_QUOTED = 2;
const SINGLE_QUOTED = 3;
/** A flag beside the quote: the value's source text is its value, code unit for code unit. */
const VERBATIM = 4;

/**
 * The attributes whose values anything after the tokenizer reads, in link
 * work: every attribute of the catalogue (as the tokenizer names it:
 * `xlink:href` before the tree construction stage adjusts it), the ones
 * the reader reads beside them (`charset`, `http-equiv` and `content` of a
 * `meta`, a template's `shadowrootmode`, a `link`'s `rel` (does it load
 * with the page), and `id` and `name`, the fragment targets), and the ones the tree construction stage reads: an `input`'s
 * `type` (is it hidden), an `annotation-xml`'s `encoding` (is it an HTML
 * integration point), a `font`'s `color`, `face` and `size` (does it leave
 * foreign content).
 *
 * @example
 * ```ts
 * linkAttributeNames.has("srcset"); // true
 * linkAttributeNames.has("class"); // false
 * ```
 */
export const linkAttributeNames: ReadonlySet<string> = new Set([
  ...catalogue.map((row) => row.attribute),
  ...catalogue.map((row) => (row.attribute.startsWith("xlink:") ? row.attribute.slice(6) : row.attribute)),
  "charset",
  "http-equiv",
  "content",
  "shadowrootmode",
  "rel",
  "id",
  "name",
  "type",
  "encoding",
  "color",
  "face",
  "size",
  ...IGNORE_MARKS,
]);

/**
 * For each length below 32 and first character below U+0080 of the names
 * in {@link linkAttributeNames}: a bit for each of their last characters
 * (by its code modulo 32).
 *
 * Optimisation: most attributes of a page are not kept; a name whose
 * length, first and last characters no kept name has is passed over
 * without being cut out of the source and looked up.
 */
const keptNameShapes: Uint32Array = (() => {
  const shapes = new Uint32Array(32 * 128);
  for (const name of linkAttributeNames) {
    if (name.length < 32) shapes[name.length * 128 + name.charCodeAt(0)]! |= 1 << (name.charCodeAt(name.length - 1) & 31);
  }
  return shapes;
})();

/** Whether the lowercase name `html[start, end)` may be one of {@link linkAttributeNames} (see {@link keptNameShapes}). */
function mayBeKeptName(html: string, start: number, end: number): boolean {
  const length = end - start;
  const first = html.charCodeAt(start);
  if (length >= 32 || first >= 128) return true;
  return ((keptNameShapes[length * 128 + first]! >>> (html.charCodeAt(end - 1) & 31)) & 1) === 1;
}

/**
 * https://html.spec.whatwg.org/multipage/parsing.html#formatting — the
 * formatting elements, whose start tags keep every attribute: the list of
 * active formatting elements compares their attributes ("the Noah's Ark
 * clause": an element with "the same tag name, namespace, and attributes"
 * as three later ones is removed), and recreates elements from them.
 */
const FORMATTING_TAG_IDS: ReadonlySet<number> = new Set([
  TAG_ID.A,
  TAG_ID.B,
  TAG_ID.BIG,
  TAG_ID.CODE,
  TAG_ID.EM,
  TAG_ID.FONT,
  TAG_ID.I,
  TAG_ID.NOBR,
  TAG_ID.S,
  TAG_ID.SMALL,
  TAG_ID.STRIKE,
  TAG_ID.STRONG,
  TAG_ID.TT,
  TAG_ID.U,
]);

/**
 * How much of each token an {@link HTMLTokenizer} makes.
 *
 * @example
 * ```ts
 * const options: TokenizerOptions = { complete: true }; // every attribute, as parse5's tokenizer
 * ```
 */
export interface TokenizerOptions {
  /**
   * Make every token whole, as parse5's tokenizer does. Without it, a
   * start tag keeps only the attributes of {@link linkAttributeNames}
   * (all of them for a formatting element).
   *
   * Optimisation: link work reads a few attributes; the others (`class`,
   * `title`, `alt`, …, most of a page's) are read past without making
   * their names' and values' strings and objects.
   */
  readonly complete?: boolean | undefined;
}

/**
 * The numbers noted for each attribute of a start tag, in
 * {@link HTMLTokenizer.attributePositions}: where its name starts and ends,
 * where its value's text starts and ends (inside the quotes; both at the
 * name's end when there is no value), and its flags (read them with
 * {@link valueQuote} and {@link isVerbatimValue}).
 *
 * @example
 * ```ts
 * // For `<a href='x'>`, attribute 0 of the tag is noted as
 * // [3, 7, 9, 10, flags]: its name "href" at 3–7, its value "x" at 9–10.
 * POSITION_FIELDS; // 5
 * ```
 */
export const POSITION_FIELDS = 5;

/**
 * How an attribute's value is written, from its flags: `"` or `'` when
 * quoted, "" when unquoted, null when the attribute has no value.
 *
 * @example
 * ```ts
 * valueQuote(flags); // '"' for the href of <a href="x">, "" for <a href=x>, null for <a download>
 * ```
 */
export function valueQuote(flags: number): '"' | "'" | "" | null {
  const q = flags & 3;
  return q === DOUBLE_QUOTED ? '"' : q === SINGLE_QUOTED ? "'" : q === UNQUOTED ? "" : null;
}

/**
 * Whether an attribute's source text is its value, code unit for code unit
 * (no character reference, CR or NUL in it), from its flags.
 *
 * @example
 * ```ts
 * isVerbatimValue(flags); // true for the href of <a href="x">, false for <a href="a&amp;b">
 * ```
 */
export function isVerbatimValue(flags: number): boolean {
  return (flags & VERBATIM) !== 0;
}

/** The parser as this tokenizer drives it: parse5's token handler, and one field of its tree construction state. */
interface TreeConstruction {
  onCharacter(token: Token.CharacterToken): void;
  onNullCharacter(token: Token.CharacterToken): void;
  onWhitespaceCharacter(token: Token.CharacterToken): void;
  onStartTag(token: Token.TagToken): void;
  onEndTag(token: Token.TagToken): void;
  onComment(token: Token.CommentToken): void;
  onDoctype(token: Token.DoctypeToken): void;
  onEof(token: Token.EOFToken): void;
  /** parse5's "the adjusted current node is an element not in the HTML namespace". */
  readonly currentNotInHTML: boolean;
  /**
   * A tree construction that reads a character token's text only when it
   * needs it has this: it gets the token's class (CHARACTER,
   * WHITESPACE_CHARACTER, NULL_CHARACTER) in place of the three methods
   * above, and may call {@link HTMLTokenizer.characterText} meanwhile.
   */
  onCharacterRun?(type: number): void;
  /**
   * True while a run of text is one token to the construction, whatever
   * its classes: it would handle the run's whitespace and other characters
   * alike but for noting that some are not whitespace (the "in body" rules
   * without foster parenting, into an HTML element; text mode), and reads
   * no text. The tokenizer then does not split the run by class.
   */
  readonly wholeTextRuns?: boolean;
}

/** The character class parse5 groups character tokens by. */
function characterClass(c: number): number {
  return isASCIIWhitespace(c) ? WHITESPACE_CHARACTER : c === 0 ? NULL_CHARACTER : CHARACTER;
}

/** https://html.spec.whatwg.org/multipage/parsing.html#preprocessing-the-input-stream — CR LF and CR become LF. */
function normalizeNewlines(s: string): string {
  return s.indexOf("\r") === -1 ? s : s.replace(/\r\n?/g, "\n");
}

/** A run of source text as the tokenizer appends it: newlines normalized, NUL replaced by U+FFFD. */
function preprocessed(s: string): string {
  return normalizeNewlines(s).replace(/\0/g, "\uFFFD");
}

/**
 * The first `&` in `html[from, end)`, or -1. A bounded scan, not
 * `indexOf`: the next `&` may be far past `end`, and looking for it from
 * every attribute value or RCDATA element would take quadratic time.
 */
function ampersandIn(html: string, from: number, end: number): number {
  for (let i = from; i < end; i++) if (html.charCodeAt(i) === 0x26) return i;
  return -1;
}

/** The index of the first `search` in `html` from `from` on, or the length of `html`. */
function indexOrEnd(html: string, search: string, from: number): number {
  const at = html.indexOf(search, from);
  return at === -1 ? html.length : at;
}

/**
 * A string that does not share the input's memory: V8 makes a slice of 13
 * code units or more a view into the string it was cut from, which would
 * keep a whole document alive for as long as one attribute value is.
 */
function ownString(s: string): string {
  return s.length < 13 ? s : ` ${s}`.slice(1);
}

/**
 * The tokenizer. Make one with the parser it drives ({@link runTokenizer}
 * does), then {@link HTMLTokenizer.run} it over the input once.
 *
 * While the parser handles a start tag, {@link HTMLTokenizer.tagNameEnd} and
 * the fields after it describe that tag in the source.
 *
 * @example
 * ```ts
 * const parser = new Parser({ treeAdapter: defaultTreeAdapter });
 * runTokenizer(parser, "<p class=x>Hi"); // parser.document now holds the tree
 * ```
 */
export class HTMLTokenizer {
  /** The tokenizer's state; the tree construction stage writes parse5's `TokenizerMode` numbers here. */
  state: number = DATA;
  /** Written by parse5's tree construction, which keeps it for its own tokenizer; not read here. */
  inForeignNode = false;
  /** The tag name of the last start tag emitted (for "appropriate end tag token"). */
  lastStartTagName = "";

  /** Where the name of the start tag being handled by the parser ends, and where the tag ends (after its `>`). */
  tagNameEnd = 0;
  tagEnd = 0;
  /** The attribute list of the start tag the parser is handling, or null between start tags. */
  emittingAttrs: Attribute[] | null = null;
  /** {@link POSITION_FIELDS} numbers for each attribute of that tag, in the order of its list. */
  attributePositions: Int32Array = new Int32Array(POSITION_FIELDS * 16);

  private readonly parser: TreeConstruction;
  /** See {@link TokenizerOptions.complete}. */
  private readonly complete: boolean;
  /** Whether the parser takes character tokens without their text (see TreeConstruction.onCharacterRun). */
  private readonly textless: boolean;
  private html = "";
  private n = 0;
  private done = false;
  /**
   * Whether the input ends where `html` ends ({@link run}, and the last
   * {@link runChunk}). When it does not, a token that reaches the end of
   * `html` is not read ({@link suspend}): {@link runChunk} returns where
   * it starts, to be read again with more input.
   */
  private final = true;
  /** Where the token being read starts (where {@link suspend} goes back to). */
  private tokenStart = 0;

  // The character token being built: its class, the text already made, and a pending run of source text.
  private charType = NO_CHARACTERS;
  private charText = "";
  private charStart = 0;
  private charEnd = 0;
  /** Whether the pending run has a CR in it. */
  private charCR = false;

  // The tag token being read: its first `attrCount` attributes in `attrs` (reused from tag to tag).
  private readonly attrs: Attribute[] = [];
  private attrCount = 0;
  private attrNames: Set<string> | null = null;
  private positions: Int32Array = this.attributePositions;

  private readonly references = new CharacterReferenceReader();
  /** Where the next "<" and the next "&" are in the data state (the input's length: none); -1 before the first look. */
  private nextLessThan = -1;
  private nextAmpersand = -1;
  /** Where the next CR and the next NUL are (the input's length: none); -1 before the first look. */
  private nextCR = -1;
  private nextNUL = -1;

  constructor(parser: object, options?: TokenizerOptions) {
    this.parser = parser as TreeConstruction;
    this.complete = options?.complete === true;
    this.textless = typeof this.parser.onCharacterRun === "function";
  }

  /** Tokenizes `html`, the whole input, to the end-of-file token. Once per tokenizer. */
  run(html: string): void {
    // Optimisation measured and left out: a copy of a large decoded input
    // (an external string) into V8's heap saves instructions a character
    // but costs more in time than it saves (BENCHMARKS.md).
    this.runChunk(html, true);
  }

  /**
   * Tokenizes `html`, the input from where the last call stopped; `final`
   * when the input ends with it. Returns how much of `html` was read: the
   * rest (a token that reaches the end of `html`, which more input could
   * change: a tag, a comment, a character reference, the text of a
   * `script`, `style`, `title` or `textarea` up to its end tag) must start
   * the next call's `html`. With `final`, everything is read, to the
   * end-of-file token.
   *
   * The caller keeps a CR that ends a non-final `html` for the next call
   * (a CR LF is one newline), and a lone high surrogate likewise.
   *
   * Deviation (none in the tree): text cut by the end of a non-final
   * `html` reaches the tree construction stage as two character tokens
   * where a whole input gives one. The standard's tokenizer emits one
   * token per character; the tree construction stage treats consecutive
   * character tokens alike however they are grouped.
   */
  runChunk(html: string, final: boolean): number {
    this.html = html;
    this.n = html.length;
    this.final = final;
    this.nextLessThan = -1;
    this.nextAmpersand = -1;
    this.nextCR = -1;
    this.nextNUL = -1;
    let i = 0;
    try {
      i = this.tokenize(0);
    } catch (error) {
      if (error !== SUSPEND) throw error;
      i = this.tokenStart;
    }
    // Pending characters are emitted: they point into this `html`.
    this.flushCharacters();
    // Let the input go.
    this.html = "";
    return i;
  }

  /**
   * Stops reading a token that reaches the end of a non-final input: the
   * token from {@link tokenStart} is read again from its start, with more
   * input. Nothing of it has been emitted.
   */
  private suspend(): never {
    throw SUSPEND;
  }

  /** The end of the input inside the token that starts at `tokenStart`: EOF for a final input, else {@link suspend}. */
  private endInToken(): void {
    if (!this.final) this.suspend();
  }

  /** The tokenizer's loop over the states; returns where it stopped (the input's end). */
  private tokenize(from: number): number {
    let i = from;
    if (!this.final && this.done) return this.n;
    while (!this.done) {
      if (!this.final && i >= this.n) return i;
      switch (this.state) {
        case RCDATA:
          i = this.rawText(i, true);
          break;
        case RAWTEXT:
          i = this.rawText(i, false);
          break;
        case SCRIPT_DATA:
          i = this.scriptData(i);
          break;
        case PLAINTEXT:
          // https://html.spec.whatwg.org/multipage/parsing.html#plaintext-state
          this.text(i, this.n, false);
          i = this.final ? this.eof() : this.n;
          break;
        default:
          i = this.data(i);
      }
    }
    return i;
  }

  // --- Character tokens ----------------------------------------------------------

  /** Appends the source text `[start, end)`, all of class `type`, to the character tokens. */
  private characters(type: number, start: number, end: number, cr: boolean): void {
    if (type !== this.charType) {
      this.flushCharacters();
      this.charType = type;
      this.charText = "";
    } else if (this.charEnd === start) {
      this.charEnd = end;
      this.charCR ||= cr;
      return;
    } else {
      this.charText += this.pendingRun();
    }
    this.charStart = start;
    this.charEnd = end;
    this.charCR = cr;
  }

  /** Appends `text`, whose characters are all of class `type`, to the character tokens. */
  private characterString(type: number, text: string): void {
    if (type !== this.charType) {
      this.flushCharacters();
      this.charType = type;
      this.charText = text;
    } else {
      this.charText += this.pendingRun() + text;
    }
    this.charStart = this.charEnd = 0;
    this.charCR = false;
  }

  private pendingRun(): string {
    const run = this.html.slice(this.charStart, this.charEnd);
    return this.charCR ? normalizeNewlines(run) : run;
  }

  /**
   * The text of the character token being emitted, for a parser that
   * takes them without it (see TreeConstruction.onCharacterRun), while
   * it handles the token.
   *
   * @example
   * ```ts
   * onCharacterRun(type) { if (keepsText) text += tokenizer.characterText(); }
   * ```
   */
  characterText(): string {
    const run = this.pendingRun();
    return this.charText === "" ? run : this.charText + run;
  }

  /** Emits the character token being built, if any. */
  private flushCharacters(): void {
    const type = this.charType;
    if (type === NO_CHARACTERS) return;
    this.charType = NO_CHARACTERS;
    if (this.textless) {
      this.parser.onCharacterRun!(type);
      this.charText = "";
      this.charStart = this.charEnd = 0;
      return;
    }
    const run = this.pendingRun();
    const token: Token.CharacterToken = { type, chars: this.charText === "" ? run : this.charText + run, location: null };
    this.charText = "";
    this.charStart = this.charEnd = 0;
    if (type === CHARACTER) this.parser.onCharacter(token);
    else if (type === WHITESPACE_CHARACTER) this.parser.onWhitespaceCharacter(token);
    else this.parser.onNullCharacter(token);
  }

  /**
   * Emits the source text `[start, end)` as character tokens, as a text
   * state without character references emits it: U+0000 as a NULL
   * character token where `nullCharacters` (the data and CDATA section
   * states), else as U+FFFD.
   */
  private text(start: number, end: number, nullCharacters: boolean): void {
    if (this.textless && this.parser.wholeTextRuns === true && this.wholeRun(start, end)) return;
    const html = this.html;
    let i = start;
    while (i < end) {
      const c = html.charCodeAt(i);
      let j = i + 1;
      if (isASCIIWhitespace(c)) {
        let cr = c === 0x0d;
        for (; j < end; j++) {
          const d = html.charCodeAt(j);
          if (!isASCIIWhitespace(d)) break;
          if (d === 0x0d) cr = true;
        }
        this.characters(WHITESPACE_CHARACTER, i, j, cr);
      } else if (c === 0) {
        while (j < end && html.charCodeAt(j) === 0) j++;
        if (nullCharacters) this.characters(NULL_CHARACTER, i, j, false);
        else this.characterString(CHARACTER, "\uFFFD".repeat(j - i));
      } else {
        for (; j < end; j++) {
          const d = html.charCodeAt(j);
          if (d <= 0x20 && (d === 0 || isASCIIWhitespace(d))) break;
        }
        this.characters(CHARACTER, i, j, false);
      }
      i = j;
    }
  }

  /**
   * Emits the source text `[start, end)`, which has no U+0000, as one
   * character token: of class CHARACTER when any of it is not whitespace,
   * else WHITESPACE_CHARACTER. Returns false (nothing emitted) when it has
   * a U+0000.
   *
   * Optimisation: for a construction that treats the run as one token
   * (TreeConstruction.wholeTextRuns) the text is not read character by
   * character: the NUL and CR it may hold are known from native scans
   * (each kept until passed), and the first character not whitespace is
   * found in a few steps.
   */
  private wholeRun(start: number, end: number): boolean {
    const html = this.html;
    if (this.nextNUL < start) this.nextNUL = indexOrEnd(html, "\0", start);
    if (this.nextNUL < end) return false;
    if (this.nextCR < start) this.nextCR = indexOrEnd(html, "\r", start);
    let i = start;
    while (i < end && isASCIIWhitespace(html.charCodeAt(i))) i++;
    this.characters(i === end ? WHITESPACE_CHARACTER : CHARACTER, start, end, this.nextCR < end);
    return true;
  }

  /** Emits the text a character reference stands for, each code unit in its class. */
  private referenceCharacters(text: string): void {
    let i = 0;
    while (i < text.length) {
      const type = characterClass(text.charCodeAt(i));
      let j = i + 1;
      while (j < text.length && characterClass(text.charCodeAt(j)) === type) j++;
      this.characterString(type, i === 0 && j === text.length ? text : text.slice(i, j));
      i = j;
    }
  }

  /** Emits the end-of-file token (after the pending characters). Returns the input's length. */
  private eof(): number {
    this.flushCharacters();
    this.parser.onEof({ type: EOF, location: null });
    this.done = true;
    return this.n;
  }

  // --- The data state --------------------------------------------------------------

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#data-state — text,
   * character references and tags, until the tree construction stage
   * switches to another state or the input ends.
   */
  private data(start: number): number {
    const html = this.html;
    const n = this.n;
    let i = start;
    while (this.state === DATA && !this.done) {
      // Optimisation: the text up to the next "<" or "&" (found by native scans, each
      // kept until it is passed, so no stretch of the input is scanned twice) is emitted in one go.
      if (this.nextLessThan < i) this.nextLessThan = indexOrEnd(html, "<", i);
      if (this.nextAmpersand < i) this.nextAmpersand = indexOrEnd(html, "&", i);
      const end = Math.min(this.nextLessThan, this.nextAmpersand);
      if (end > i) {
        this.text(i, end, true);
        i = end;
      }
      if (i >= n) return this.final ? this.eof() : n;
      if (i === this.nextLessThan) {
        i = this.tagOpen(i);
        continue;
      }
      this.tokenStart = i;
      // A reference is letters, digits, "#" and a ";": one that may run on past a non-final input's end waits for more.
      if (!this.final && referenceMayContinue(html, i + 1, n)) this.suspend();
      // https://html.spec.whatwg.org/multipage/parsing.html#character-reference-state
      // (after a reference that is not one, the ambiguous ampersand state emits
      // the alphanumerics after it as characters, as the data state would).
      const length = this.references.read(html, i, n, false);
      if (length === 0) {
        this.characters(CHARACTER, i, i + 1, false);
        i++;
      } else {
        this.referenceCharacters(this.references.text);
        i += length;
      }
    }
    return i;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#tag-open-state —
   * what follows the `<` at `lt`, read to its end. Returns where reading
   * goes on.
   */
  private tagOpen(lt: number): number {
    const html = this.html;
    const n = this.n;
    this.tokenStart = lt;
    // "<!DOCTYPE" and "<![CDATA[" are the longest look-aheads.
    if (!this.final && lt + 9 >= n) this.suspend();
    const c = html.charCodeAt(lt + 1);
    if (isASCIIAlpha(c)) return this.tag(lt + 1, START_TAG);
    if (c === 0x2f) {
      // https://html.spec.whatwg.org/multipage/parsing.html#end-tag-open-state
      const d = html.charCodeAt(lt + 2);
      if (isASCIIAlpha(d)) return this.tag(lt + 2, END_TAG);
      // "missing-end-tag-name parse error. Switch to the data state." ("</>" is nothing.)
      if (d === 0x3e) return lt + 3;
      if (lt + 2 >= n) {
        this.endInToken();
        this.characters(CHARACTER, lt, lt + 2, false);
        return this.eof();
      }
      return this.bogusComment(lt + 2, "");
    }
    if (c === 0x21) return this.markupDeclarationOpen(lt + 2);
    // "unexpected-question-mark-instead-of-tag-name parse error. Create a comment
    // token whose data is the empty string. Reconsume in the bogus comment state."
    if (c === 0x3f) return this.bogusComment(lt + 1, "");
    // Anything else (EOF included): the "<" is a character.
    this.characters(CHARACTER, lt, lt + 1, false);
    return lt + 1;
  }

  // --- Tags -----------------------------------------------------------------------

  /**
   * A start or end tag whose name starts at `nameStart` (after its `<` or
   * `</`), read through the tag name state, the attribute states and
   * the self-closing start tag state to its emission
   * (https://html.spec.whatwg.org/multipage/parsing.html#tag-name-state and
   * the states after it). Returns where the data state (or whichever state
   * the tree construction stage chose) goes on.
   */
  private tag(nameStart: number, type: number): number {
    const html = this.html;
    const n = this.n;
    // Tag name state.
    let i = nameStart;
    let plain = true;
    for (; i < n; i++) {
      const c = html.charCodeAt(i);
      if (c <= 0x20) {
        if (isASCIIWhitespace(c)) break;
        if (c === 0) plain = false;
      } else if (c === 0x2f || c === 0x3e) {
        break;
      } else if (c >= 0x41 && c <= 0x5a) {
        plain = false;
      }
    }
    // "EOF: eof-in-tag parse error. Emit an end-of-file token." (The tag is dropped.)
    if (i >= n) return this.endOfTag();
    const nameEnd = i;
    const tagName = plain ? html.slice(nameStart, nameEnd) : tokenName(html, nameStart, nameEnd);
    const tagID = getTagID(tagName);
    const keepAll = this.complete || FORMATTING_TAG_IDS.has(tagID);
    this.attrCount = 0;
    this.attrNames = null;
    let selfClosing = false;
    // Before attribute name state.
    for (;;) {
      while (i < n && isASCIIWhitespace(html.charCodeAt(i))) i++;
      if (i >= n) return this.endOfTag();
      let c = html.charCodeAt(i);
      if (c === 0x3e) {
        i++;
        break;
      }
      if (c === 0x2f) {
        // Self-closing start tag state.
        i++;
        if (i >= n) return this.endOfTag();
        if (html.charCodeAt(i) === 0x3e) {
          selfClosing = true;
          i++;
          break;
        }
        // "unexpected-solidus-in-tag parse error. Reconsume in the before attribute name state."
        continue;
      }
      // Attribute name state: the first character is part of the name, even "=".
      const attrNameStart = i;
      plain = c !== 0 && !(c >= 0x41 && c <= 0x5a);
      for (i++; i < n; i++) {
        c = html.charCodeAt(i);
        if (c <= 0x20) {
          if (isASCIIWhitespace(c)) break;
          if (c === 0) plain = false;
        } else if (c === 0x2f || c === 0x3e || c === 0x3d) {
          break;
        } else if (c >= 0x41 && c <= 0x5a) {
          plain = false;
        }
      }
      const attrNameEnd = i;
      let name = "";
      let keep = keepAll;
      if (keepAll || !plain || mayBeKeptName(html, attrNameStart, attrNameEnd)) {
        name = plain ? html.slice(attrNameStart, attrNameEnd) : tokenName(html, attrNameStart, attrNameEnd);
        keep ||= linkAttributeNames.has(name);
      }
      // After attribute name state.
      while (i < n && isASCIIWhitespace(html.charCodeAt(i))) i++;
      if (i >= n) return this.endOfTag();
      if (html.charCodeAt(i) !== 0x3d) {
        // No value; what follows is read by the before attribute name state ("/", ">" or a new attribute).
        if (keep) this.attribute(name, "", attrNameStart, attrNameEnd, attrNameEnd, attrNameEnd, NO_VALUE | VERBATIM);
        continue;
      }
      // Before attribute value state.
      i++;
      while (i < n && isASCIIWhitespace(html.charCodeAt(i))) i++;
      if (i >= n) return this.endOfTag();
      c = html.charCodeAt(i);
      if (c === 0x22 || c === 0x27) {
        // Attribute value (double- or single-quoted) state.
        // Optimisation: the closing quote is found by a native scan, and whether the
        // value has a "&", NUL or CR in it from where the next of each is (see nextSpecial).
        const valueStart = i + 1;
        i = html.indexOf(c === 0x22 ? '"' : "'", valueStart);
        if (i === -1) return this.endOfTag();
        if (keep) {
          const verbatim = this.nextSpecial(valueStart) >= i;
          const value = verbatim ? ownString(html.slice(valueStart, i)) : this.attributeValue(valueStart, i);
          this.attribute(name, value, attrNameStart, attrNameEnd, valueStart, i, (c === 0x22 ? DOUBLE_QUOTED : SINGLE_QUOTED) | (verbatim ? VERBATIM : 0));
        }
        // After attribute value (quoted) state: whitespace, "/" and ">" are read by the
        // before attribute name state; so is anything else ("missing-whitespace-between-attributes").
        i++;
        continue;
      }
      if (c === 0x3e) {
        // "missing-attribute-value parse error. Switch to the data state. Emit the current tag token."
        if (keep) this.attribute(name, "", attrNameStart, attrNameEnd, i, i, UNQUOTED | VERBATIM);
        i++;
        break;
      }
      // Attribute value (unquoted) state.
      const valueStart = i;
      let verbatim = true;
      for (; i < n; i++) {
        const d = html.charCodeAt(i);
        if (d <= 0x20) {
          if (isASCIIWhitespace(d)) break;
          if (d === 0) verbatim = false;
        } else if (d === 0x3e) {
          break;
        } else if (d === 0x26) {
          verbatim = false;
        }
      }
      if (i >= n) return this.endOfTag();
      if (keep) {
        const value = verbatim ? ownString(html.slice(valueStart, i)) : this.attributeValue(valueStart, i);
        this.attribute(name, value, attrNameStart, attrNameEnd, valueStart, i, UNQUOTED | (verbatim ? VERBATIM : 0));
      }
    }
    this.flushCharacters();
    // Optimisation: the token's list is made at its length (a list grown by pushing holds room for 17, and an
    // element keeps its start tag's list for as long as the parse keeps the element).
    const count = this.attrCount;
    const attrs = count === 0 ? [] : this.attrs.slice(0, count);
    const token: Token.TagToken = { type, tagName, tagID, selfClosing, ackSelfClosing: false, attrs, location: null };
    if (type === START_TAG) {
      this.lastStartTagName = tagName;
      this.tagNameEnd = nameEnd;
      this.tagEnd = i;
      this.attributePositions = this.positions;
      this.emittingAttrs = attrs;
      this.parser.onStartTag(token);
      this.emittingAttrs = null;
    } else {
      this.parser.onEndTag(token);
    }
    return i;
  }

  /**
   * Where the first "&", NUL or CR at or after `from` is (the input's
   * length: none). Each is found by a native scan and kept until it is
   * passed: reading goes forward, so no stretch of the input is scanned
   * twice for one of them.
   */
  private nextSpecial(from: number): number {
    const html = this.html;
    if (this.nextAmpersand < from) this.nextAmpersand = indexOrEnd(html, "&", from);
    if (this.nextCR < from) this.nextCR = indexOrEnd(html, "\r", from);
    if (this.nextNUL < from) this.nextNUL = indexOrEnd(html, "\0", from);
    return Math.min(this.nextAmpersand, this.nextCR, this.nextNUL);
  }

  /** "EOF: eof-in-tag parse error. Emit an end-of-file token." (the tag is dropped); in a non-final input, more input decides. */
  private endOfTag(): number {
    this.endInToken();
    return this.eof();
  }

  /**
   * Adds an attribute to the tag being read, unless it has one of that name:
   * "if there is already an attribute on the token with the exact same
   * name, then this is a duplicate-attribute parse error and the new
   * attribute must be removed from the token."
   */
  private attribute(name: string, value: string, nameStart: number, nameEnd: number, valueStart: number, valueEnd: number, flags: number): void {
    const attrs = this.attrs;
    const count = this.attrCount;
    // Optimisation: a tag's few names are compared in a loop; from 64 on, a set (no quadratic time).
    if (count < 64) {
      for (let k = 0; k < count; k++) if (attrs[k]!.name === name) return;
    } else {
      let names = this.attrNames;
      if (names === null) names = this.attrNames = new Set(attrs.slice(0, count).map((a) => a.name));
      if (names.has(name)) return;
      names.add(name);
    }
    attrs[count] = { name, value };
    this.attrCount = count + 1;
    let positions = this.positions;
    const at = count * POSITION_FIELDS;
    if (at + POSITION_FIELDS > positions.length) {
      const grown = new Int32Array(positions.length * 2);
      grown.set(positions);
      positions = this.positions = grown;
    }
    positions[at] = nameStart;
    positions[at + 1] = nameEnd;
    positions[at + 2] = valueStart;
    positions[at + 3] = valueEnd;
    positions[at + 4] = flags;
  }

  /**
   * The value of an attribute whose text `[start, end)` has a character
   * reference, a NUL or a CR in it (the attribute value states'
   * "U+0026 AMPERSAND (&)": the character reference state, with the
   * attribute value state as the return state).
   */
  private attributeValue(start: number, end: number): string {
    const html = this.html;
    let value = "";
    let from = start;
    let amp = ampersandIn(html, start, end);
    while (amp !== -1) {
      // A reference never runs past the value's end: it cannot hold a quote, whitespace or ">".
      const length = this.references.read(html, amp, this.n, true);
      if (length === 0) {
        amp = ampersandIn(html, amp + 1, end);
        continue;
      }
      value += preprocessed(html.slice(from, amp)) + this.references.text;
      from = amp + length;
      amp = ampersandIn(html, from, end);
    }
    return ownString(value + preprocessed(html.slice(from, end)));
  }

  // --- Comments, DOCTYPEs and CDATA sections ---------------------------------------

  /** https://html.spec.whatwg.org/multipage/parsing.html#markup-declaration-open-state — after `<!`, at `i`. */
  private markupDeclarationOpen(i: number): number {
    const html = this.html;
    if (html.startsWith("--", i)) return this.comment(i + 2);
    if (i + 7 <= this.n && html.slice(i, i + 7).toLowerCase() === "doctype") return this.doctype(i + 7);
    if (html.startsWith("[CDATA[", i)) {
      if (this.parser.currentNotInHTML) return this.cdataSection(i + 7);
      // "cdata-in-html-content parse error. Create a comment token whose data is the
      // "[CDATA[" string. Switch to the bogus comment state."
      return this.bogusComment(i + 7, "[CDATA[");
    }
    // "incorrectly-opened-comment parse error. Create a comment token whose data is the
    // empty string. Switch to the bogus comment state (don't consume anything in the current state)."
    return this.bogusComment(i, "");
  }

  private emitComment(data: string): void {
    this.flushCharacters();
    this.parser.onComment({ type: COMMENT, data, location: null });
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#bogus-comment-state — from `i` to the next `>`. */
  private bogusComment(i: number, data: string): number {
    const end = this.html.indexOf(">", i);
    if (end === -1) this.endInToken();
    this.emitComment(data + preprocessed(this.html.slice(i, end === -1 ? this.n : end)));
    return end === -1 ? this.eof() : end + 1;
  }

  /**
   * A comment whose data starts at `start`, after `<!--`: the comment start
   * state and the states after it
   * (https://html.spec.whatwg.org/multipage/parsing.html#comment-start-state).
   */
  private comment(start: number): number {
    const html = this.html;
    const n = this.n;
    let i = start;
    // Every way a comment ends has a ">" (or is EOF): without one, a non-final input waits for more.
    // A ">" that turns out not to end it is found again, and the comment reads on to the input's end.
    if (!this.final && html.indexOf(">", start) === -1) this.suspend();
    // Comment start state and comment start dash state.
    if (html.charCodeAt(i) === 0x3e) {
      // "abrupt-closing-of-empty-comment parse error. Switch to the data state. Emit the current comment token."
      this.emitComment("");
      return i + 1;
    }
    if (html.charCodeAt(i) === 0x2d) {
      if (html.charCodeAt(i + 1) === 0x3e) {
        this.emitComment("");
        return i + 2;
      }
      if (i + 1 >= n) {
        this.endInToken();
        // "eof-in-comment parse error. Emit the current comment token. Emit an end-of-file token."
        this.emitComment("");
        return this.eof();
      }
    }
    // Comment state, comment end dash state, comment end state, comment end bang
    // state. The data is the source text up to where the comment ends, less the
    // "--" or "--!" that end it (the "-" of "<!--->" and "<!---x" included: the
    // comment start dash state appends it).
    for (;;) {
      const dash = html.indexOf("--", i);
      if (dash === -1) {
        this.endInToken();
        // EOF in the comment, comment end dash or comment end state: the data is all
        // the text, less a last "-" or "--" (which those states hold, not yet appended).
        let end = n;
        if (html.charCodeAt(n - 1) === 0x2d && n - 1 >= start) end = n - 1;
        this.emitComment(preprocessed(html.slice(start, end)));
        return this.eof();
      }
      // Comment end state at dash + 2: "-" appends one "-" and stays; ">" ends; "!" may end.
      let j = dash + 2;
      while (j < n && html.charCodeAt(j) === 0x2d) j++;
      // Each "-" beyond the second appends a "-": the comment ends with the last two.
      if (j >= n) {
        this.endInToken();
        this.emitComment(preprocessed(html.slice(start, j - 2)));
        return this.eof();
      }
      const c = html.charCodeAt(j);
      if (c === 0x3e) {
        this.emitComment(preprocessed(html.slice(start, j - 2)));
        return j + 1;
      }
      if (c === 0x21) {
        // Comment end bang state.
        if (j + 1 >= n) {
          this.endInToken();
          this.emitComment(preprocessed(html.slice(start, j - 2)));
          return this.eof();
        }
        if (html.charCodeAt(j + 1) === 0x3e) {
          // "incorrectly-closed-comment parse error. Switch to the data state. Emit the current comment token."
          this.emitComment(preprocessed(html.slice(start, j - 2)));
          return j + 2;
        }
        // "--!" is appended to the data; a "-" after it goes to the comment end dash state.
        i = j + 1;
        continue;
      }
      // Anything else: "--" is appended, reconsume in the comment state.
      i = j;
    }
  }

  /**
   * A CDATA section whose text starts at `start`
   * (https://html.spec.whatwg.org/multipage/parsing.html#cdata-section-state):
   * characters up to the first `]]>`.
   */
  private cdataSection(start: number): number {
    const end = this.html.indexOf("]]>", start);
    if (end === -1) {
      this.endInToken();
      // "eof-in-cdata parse error. Emit an end-of-file token."
      this.text(start, this.n, true);
      return this.eof();
    }
    this.text(start, end, true);
    return end + 3;
  }

  /**
   * A DOCTYPE whose keyword ends at `start`: the DOCTYPE state and the states
   * after it (https://html.spec.whatwg.org/multipage/parsing.html#doctype-state).
   */
  private doctype(start: number): number {
    const html = this.html;
    const n = this.n;
    let i = start;
    // Every DOCTYPE state ends the token at a ">" (or EOF): without one, a non-final input waits for more.
    if (!this.final && html.indexOf(">", start) === -1) this.suspend();
    const token: Token.DoctypeToken = { type: DOCTYPE, name: null, forceQuirks: false, publicId: null, systemId: null, location: null };
    const emit = (at: number, forceQuirks: boolean): number => {
      if (forceQuirks) token.forceQuirks = true;
      this.flushCharacters();
      this.parser.onDoctype(token);
      return at >= n ? this.eof() : at + 1;
    };
    const skipWhitespace = (): void => {
      while (i < n && isASCIIWhitespace(html.charCodeAt(i))) i++;
    };
    // DOCTYPE state: whitespace, or "missing-whitespace-before-doctype-name" (the same from here).
    // Before DOCTYPE name state.
    skipWhitespace();
    if (i >= n) return emit(i, true);
    if (html.charCodeAt(i) === 0x3e) return emit(i, true);
    // DOCTYPE name state.
    let nameEnd = i + 1;
    while (nameEnd < n) {
      const c = html.charCodeAt(nameEnd);
      if (isASCIIWhitespace(c) || c === 0x3e) break;
      nameEnd++;
    }
    token.name = tokenName(html, i, nameEnd);
    i = nameEnd;
    if (i >= n) return emit(i, true);
    if (html.charCodeAt(i) === 0x3e) return emit(i, false);
    // After DOCTYPE name state.
    skipWhitespace();
    if (i >= n) return emit(i, true);
    if (html.charCodeAt(i) === 0x3e) return emit(i, false);
    const keyword = i + 6 <= n ? html.slice(i, i + 6).toLowerCase() : "";
    if (keyword !== "public" && keyword !== "system") {
      // "invalid-character-sequence-after-doctype-name parse error. Set the current DOCTYPE
      // token's force-quirks flag to on. Reconsume in the bogus DOCTYPE state."
      token.forceQuirks = true;
      return this.bogusDoctype(i, emit);
    }
    i += 6;
    // After DOCTYPE public/system keyword state, then before DOCTYPE public/system identifier state.
    skipWhitespace();
    if (i >= n) return emit(i, true);
    let c = html.charCodeAt(i);
    if (c === 0x3e) return emit(i, true);
    if (c !== 0x22 && c !== 0x27) {
      token.forceQuirks = true;
      return this.bogusDoctype(i, emit);
    }
    // DOCTYPE public/system identifier (double- or single-quoted) state.
    const identifier = (): number => {
      const quote = html.charCodeAt(i);
      let end = i + 1;
      while (end < n) {
        const d = html.charCodeAt(end);
        if (d === quote || d === 0x3e) break;
        end++;
      }
      const value = preprocessed(html.slice(i + 1, end));
      if (keyword === "public" && token.publicId === null) token.publicId = value;
      else token.systemId = value;
      i = end;
      // ">" inside: "abrupt-doctype-…-identifier parse error. Set the force-quirks flag to on. Emit."
      return end >= n ? -1 : html.charCodeAt(end) === quote ? 0 : 1;
    };
    let result = identifier();
    if (result === -1) return emit(i, true);
    if (result === 1) return emit(i, true);
    i++;
    if (keyword === "system") {
      // After DOCTYPE system identifier state.
      skipWhitespace();
      if (i >= n) return emit(i, true);
      // "unexpected-character-after-doctype-system-identifier parse error. Reconsume in the
      // bogus DOCTYPE state. (This does not set the current DOCTYPE token's force-quirks flag to on.)"
      return html.charCodeAt(i) === 0x3e ? emit(i, false) : this.bogusDoctype(i, emit);
    }
    // After DOCTYPE public identifier state, then between DOCTYPE public and system identifiers state.
    skipWhitespace();
    if (i >= n) return emit(i, true);
    c = html.charCodeAt(i);
    if (c === 0x3e) return emit(i, false);
    if (c !== 0x22 && c !== 0x27) {
      // "missing-quote-before-doctype-system-identifier parse error. Set the force-quirks flag to on. Reconsume in the bogus DOCTYPE state."
      token.forceQuirks = true;
      return this.bogusDoctype(i, emit);
    }
    result = identifier();
    if (result !== 0) return emit(i, true);
    i++;
    // After DOCTYPE system identifier state.
    skipWhitespace();
    if (i >= n) return emit(i, true);
    return html.charCodeAt(i) === 0x3e ? emit(i, false) : this.bogusDoctype(i, emit);
  }

  /** https://html.spec.whatwg.org/multipage/parsing.html#bogus-doctype-state — to the next `>` (or EOF), then emit. */
  private bogusDoctype(i: number, emit: (at: number, forceQuirks: boolean) => number): number {
    const end = this.html.indexOf(">", i);
    return emit(end === -1 ? this.n : end, false);
  }

  // --- RCDATA, RAWTEXT and script data ----------------------------------------------

  /** Whether an appropriate end tag for the last start tag emitted starts at `lt` (see {@link isAppropriateEndTagAt}). */
  private isAppropriateEndTag(lt: number): boolean {
    return isAppropriateEndTagAt(this.html, lt, this.lastStartTagName);
  }

  /**
   * The RCDATA state (`withReferences`) or the RAWTEXT state
   * (https://html.spec.whatwg.org/multipage/parsing.html#rcdata-state,
   * #rawtext-state, and their less-than sign, end tag open and end tag name
   * states): text up to an appropriate end tag, which is then read as a tag.
   */
  private rawText(start: number, withReferences: boolean): number {
    const end = rawTextEnd(this.html, start, this.lastStartTagName);
    if (end === this.n) {
      this.tokenStart = start;
      this.endInToken();
    }
    if (withReferences) this.rcdataText(start, end);
    else this.text(start, end, false);
    if (end === this.n) return this.eof();
    this.state = DATA;
    this.tokenStart = end;
    return this.tag(end + 2, END_TAG);
  }

  /** RCDATA text `[start, end)`: character references decoded, U+0000 read as U+FFFD. */
  private rcdataText(start: number, end: number): void {
    const html = this.html;
    let from = start;
    let amp = ampersandIn(html, start, end);
    while (amp !== -1) {
      // A reference never runs into the end tag: it cannot hold a "<".
      const length = this.references.read(html, amp, this.n, false);
      if (length === 0) {
        amp = ampersandIn(html, amp + 1, end);
        continue;
      }
      this.text(from, amp, false);
      this.referenceCharacters(this.references.text);
      from = amp + length;
      amp = ampersandIn(html, from, end);
    }
    this.text(from, end, false);
  }

  /**
   * The script data state and the states it leads to
   * (https://html.spec.whatwg.org/multipage/parsing.html#script-data-state
   * through #script-data-double-escape-end-state): where the script's text
   * ends is decided by the escaped (`<!--`) and double-escaped
   * (`<!--<script>`) states; every character up to there is emitted as it
   * is (U+0000 as U+FFFD), then the end tag is read as a tag.
   */
  private scriptData(start: number): number {
    const html = this.html;
    const n = this.n;
    // 0: script data, 1: escaped, 2: double escaped.
    let mode = 0;
    let i = start;
    let end = -1;
    scan: while (i < n) {
      if (mode === 0) {
        const lt = html.indexOf("<", i);
        if (lt === -1) break;
        i = lt + 1;
        if (this.isAppropriateEndTag(lt)) {
          end = lt;
          break;
        }
        // Script data escape start state and escape start dash state: "<!--".
        if (html.startsWith("!--", i)) {
          // Then the script data escaped dash dash state.
          i = afterDashes(html, i + 3);
          if (html.charCodeAt(i) === 0x3e) i++;
          else mode = 1;
        }
        continue;
      }
      // Escaped or double escaped: look at "-->" and "<".
      const c = html.charCodeAt(i);
      if (c === 0x2d) {
        // Dash and dash dash states: after "--", more "-" stay; ">" goes back to script data.
        if (html.charCodeAt(i + 1) === 0x2d) {
          i = afterDashes(html, i + 2);
          if (html.charCodeAt(i) === 0x3e) {
            mode = 0;
            i++;
          }
          continue;
        }
        i++;
        continue;
      }
      if (c !== 0x3c) {
        i++;
        continue;
      }
      // Escaped less-than sign state, or double escaped less-than sign state.
      if (mode === 1) {
        if (this.isAppropriateEndTag(i)) {
          end = i;
          break scan;
        }
        // Script data double escape start state: "<script" then whitespace, "/" or ">".
        if (isASCIIAlpha(html.charCodeAt(i + 1)) && isScriptWord(html, i + 1)) {
          mode = 2;
          i += 7;
          continue;
        }
        i++;
        continue;
      }
      // Double escaped: "</script" then whitespace, "/" or ">" goes back to escaped.
      if (html.charCodeAt(i + 1) === 0x2f && isScriptWord(html, i + 2)) {
        mode = 1;
        i += 8;
        continue;
      }
      i++;
    }
    if (end === -1) {
      this.tokenStart = start;
      this.endInToken();
    }
    const textEnd = end === -1 ? n : end;
    this.text(start, textEnd, false);
    if (end === -1) return this.eof();
    this.state = DATA;
    this.tokenStart = end;
    return this.tag(end + 2, END_TAG);
  }
}

/** Thrown by {@link HTMLTokenizer.suspend}, caught by {@link HTMLTokenizer.runChunk}. */
const SUSPEND: unique symbol = Symbol("suspend");

/**
 * Whether a character reference whose text starts at `from` (after its
 * `&`) may go on past `end`: everything from `from` to `end` is an ASCII
 * alphanumeric or `#` (a named reference is alphanumerics then `;`, a
 * numeric one `#`, an optional `x`, digits and `;`).
 */
function referenceMayContinue(html: string, from: number, end: number): boolean {
  for (let i = from; i < end; i++) {
    const c = html.charCodeAt(i);
    if (!((c >= 0x30 && c <= 0x39) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a) || c === 0x23)) return false;
  }
  return true;
}

/**
 * The script data escaped (or double escaped) dash dash state at `i`:
 * each further "-" stays in it; returns where they end (a ">" there goes
 * back to the script data state).
 */
function afterDashes(html: string, i: number): number {
  while (html.charCodeAt(i) === 0x2d) i++;
  return i;
}

/**
 * Whether an end tag for `name` (ASCII lower-case letters) starts at `lt`,
 * the `<` of `</`: "an appropriate end tag token" (one "whose tag name
 * matches the tag name of the last start tag to have been emitted"), as
 * the RCDATA, RAWTEXT and script data end tag name states read it: the
 * name in ASCII letters of any case, then whitespace, `/` or `>` (at the
 * end of the input it is not one).
 *
 * @example
 * ```ts
 * isAppropriateEndTagAt("a</STYLE >", 1, "style"); // true
 * isAppropriateEndTagAt("a</styles>", 1, "style"); // false
 * ```
 */
export function isAppropriateEndTagAt(html: string, lt: number, name: string): boolean {
  const end = lt + 2 + name.length;
  if (end >= html.length || html.charCodeAt(lt + 1) !== 0x2f) return false;
  for (let k = 0; k < name.length; k++) {
    const c = html.charCodeAt(lt + 2 + k);
    if (!isASCIIAlpha(c) || (c | 0x20) !== name.charCodeAt(k)) return false;
  }
  const c = html.charCodeAt(end);
  return isASCIIWhitespace(c) || c === 0x2f || c === 0x3e;
}

/**
 * The end of the text of an RCDATA or RAWTEXT element (`style`, `title`,
 * …) named `tagName` whose start tag ends at `contentStart`: the `<` of the
 * first appropriate end tag ({@link isAppropriateEndTagAt}), or the end of
 * the input.
 *
 * @example
 * ```ts
 * rawTextEnd("<style>a</styles></STYLE >", 7, "style"); // 17
 * ```
 */
export function rawTextEnd(html: string, contentStart: number, tagName: string): number {
  for (let i = html.indexOf("</", contentStart); i !== -1; i = html.indexOf("</", i + 2)) {
    if (isAppropriateEndTagAt(html, i, tagName)) return i;
  }
  // No end tag: the text runs to the end of the input ("</style" then EOF included).
  return html.length;
}

/**
 * Whether `script` (ASCII letters in any case) starts at `i`, followed by
 * whitespace, `/` or `>`: the temporary buffer of the script data double
 * escape start and end states, equal to "script" when one of those ends it.
 */
function isScriptWord(html: string, i: number): boolean {
  if (i + 6 >= html.length) return false;
  for (let k = 0; k < 6; k++) {
    if ((html.charCodeAt(i + k) | 0x20) !== "script".charCodeAt(k)) return false;
  }
  const c = html.charCodeAt(i + 6);
  return isASCIIWhitespace(c) || c === 0x2f || c === 0x3e;
}

/**
 * A tag, attribute or DOCTYPE name as the tokenizer makes it from the
 * source text `[start, end)`: ASCII upper alpha lowered ("append the
 * lowercase version"), U+0000 replaced by U+FFFD, anything else as it is.
 */
function tokenName(html: string, start: number, end: number): string {
  return html.slice(start, end).replace(/[A-Z\0]/g, (c) => (c === "\0" ? "\uFFFD" : c.toLowerCase()));
}

/**
 * Puts a new {@link HTMLTokenizer} in place of `parser`'s own tokenizer
 * (the tree construction stage sets the tokenizer's state through it), and
 * returns it, to {@link HTMLTokenizer.run} once. Its tokens are made for
 * link work (see {@link TokenizerOptions}) unless `options` say otherwise.
 *
 * @example
 * ```ts
 * const parser = new Parser({ treeAdapter: defaultTreeAdapter });
 * installTokenizer(parser).run("<p class=x>Hi"); // the tree's <p> has no class: link work does not read it
 * ```
 */
export function installTokenizer<T extends TreeAdapterTypeMap>(parser: Parser<T>, options?: TokenizerOptions): HTMLTokenizer {
  const tokenizer = new HTMLTokenizer(parser, options);
  (parser as { tokenizer: unknown }).tokenizer = tokenizer;
  return tokenizer;
}

/**
 * Runs an {@link HTMLTokenizer} over `html`, the whole input, in place of
 * `parser`'s own tokenizer: the parser builds its tree from its tokens, to
 * the end. Returns the tokenizer. Its tokens are whole, as parse5's
 * tokenizer makes them, unless `options` say otherwise.
 *
 * Never throws for bad input: every string is an HTML document.
 *
 * @example
 * ```ts
 * import { defaultTreeAdapter, Parser, serialize } from "parse5";
 * const parser = new Parser({ treeAdapter: defaultTreeAdapter });
 * runTokenizer(parser, "<title>a</title><p>b");
 * serialize(parser.document); // "<html><head><title>a</title></head><body><p>b</p></body></html>"
 * ```
 */
export function runTokenizer<T extends TreeAdapterTypeMap>(parser: Parser<T>, html: string, options: TokenizerOptions = { complete: true }): HTMLTokenizer {
  const tokenizer = installTokenizer(parser, options);
  tokenizer.run(html);
  return tokenizer;
}
