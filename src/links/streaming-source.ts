/**
 * Parsing a document that arrives in pieces: the tokenizer reads each piece
 * as far as it can (html-tokenizer.ts's `runChunk`), parse5's tree
 * construction builds the tree token by token, and the tree keeps only what
 * can still matter, so that memory follows the depth of open elements, not
 * the length of the document. It also says when the document base URL is
 * settled, which is what lets a streamed document's links be resolved
 * before its end.
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#overview-of-the-parsing-model
 *
 * @module
 */

import { Parser, type DefaultTreeAdapterMap, type TreeAdapter } from "parse5";
import { HTML_NAMESPACE, isParsedBaseElementWithHref, MATHML_NAMESPACE, SVG_NAMESPACE } from "../html/index.ts";
import { LinksError } from "./errors.ts";
import { type HTMLTokenizer, installTokenizer } from "./html-tokenizer.ts";
import {
  type LeanChild,
  type LeanDocument,
  type LeanElement,
  type LeanParent,
  type LeanParse,
  leanTreeAdapter,
  newParse,
  type TagRecord,
  templateDepthKind,
  withParse,
} from "./html-source.ts";

/** What a streamed parse notes beyond the lean parse's records. */
interface StreamState {
  /**
   * The first HTML `base` element with an `href` the parser made in the
   * document's tree (not in template contents or a shadow tree), in the
   * order it made them; null before one.
   */
  firstBase: LeanElement | null;
  /**
   * Whether something was inserted before a node that holds `firstBase`
   * (foster parenting, before a table): it, or what goes into it later,
   * may hold a base element that comes first in tree order. The tree that
   * would tell is not kept, so the base URL is then settled only by
   * reading the whole document again (see link-stream.ts).
   */
  ambiguous: boolean;
  /** The `style` elements recorded and still open: their text is not all read yet. */
  openStyles: Set<LeanElement>;
  /** Whether an SVG `style` keeps its children (its text is read for links); a reading that reads no link keeps none. */
  keepStyleText: boolean;
}

/** The streamed parse in progress, for the adapter's hooks (parsing is synchronous: one slot serves). */
let stream: StreamState | null = null;

/** Whether `node` is `ancestor` or inside it (by parent pointers, which the streaming tree keeps). */
function isInclusiveAncestor(ancestor: LeanParent, node: LeanElement): boolean {
  for (let n: LeanParent | null = node; n !== null; n = (n as LeanElement).parentNode ?? null) {
    if (n === ancestor) return true;
  }
  return false;
}

/** Whether a parent keeps its children in the streaming tree: the document (its `html`), and an SVG `style` (whose text is read, when it is). */
function keepsChildren(parent: LeanParent): boolean {
  return parent.nodeName === "#document" || (stream!.keepStyleText && parent.nodeName === "style" && (parent as LeanElement).namespaceURI === SVG_NAMESPACE);
}

/**
 * The streaming tree adapter: the lean tree adapter, but a node knows its
 * parent and a parent does not list its children (but for
 * {@link keepsChildren}), so an element that the parser no longer holds
 * (in its stack of open elements, its list of active formatting elements,
 * its head or form element pointer) and that no record waits on is
 * garbage. Nothing the parser reads from the tree is lost: it finds a
 * table's parent through the table (foster parenting), and the children it
 * moves (the adoption agency's furthest block's) only move with it here,
 * which changes no element's namespace, template or ancestors that are
 * tables, head or body — the facts {@link StreamingSource.baseIsSettled}
 * reads.
 */
const streamingTreeAdapter = {
  ...(leanTreeAdapter as unknown as Record<string, unknown>),
  createElement(tagName: string, namespaceURI: string, attrs: LeanElement["attrs"]): LeanElement {
    const element = (leanTreeAdapter as unknown as { createElement(t: string, n: string, a: LeanElement["attrs"]): LeanElement }).createElement(tagName, namespaceURI, attrs);
    const state = stream!;
    if (tagName === "style" && namespaceURI !== MATHML_NAMESPACE) state.openStyles.add(element);
    if (state.firstBase === null && isParsedBaseElementWithHref(element)) {
      // Only the element of the start tag being handled counts (as in the lean adapter), in the document's tree.
      if (templateDepthKind(currentParse!) === 0) state.firstBase = element;
    }
    return element;
  },
  appendChild(parent: LeanParent, node: LeanChild | { nodeName: string; parentNode: null }): void {
    if (node.nodeName === "#comment") return;
    const child = node as LeanChild;
    child.parentNode = parent;
    if (keepsChildren(parent)) parent.childNodes.push(child);
  },
  insertBefore(parent: LeanParent, node: LeanChild, reference: LeanChild): void {
    node.parentNode = parent;
    const state = stream!;
    // Foster parenting: before a table that holds the first base element, something may come first in tree order.
    if (state.firstBase !== null && reference.nodeName !== "#text" && isInclusiveAncestor(reference as LeanElement, state.firstBase)) state.ambiguous = true;
    if (keepsChildren(parent)) {
      const siblings = parent.childNodes;
      const i = siblings.indexOf(reference);
      siblings.splice(i === -1 ? siblings.length : i, 0, node);
    }
  },
  detachNode(node: LeanChild): void {
    const parent = node.parentNode;
    if (parent === null) return;
    node.parentNode = null;
    if (keepsChildren(parent)) {
      const i = parent.childNodes.indexOf(node);
      if (i !== -1) parent.childNodes.splice(i, 1);
    }
  },
  onItemPop(node: LeanElement, isTop: boolean): void {
    (leanTreeAdapter as unknown as { onItemPop(n: LeanElement, t: boolean): void }).onItemPop(node, isTop);
    if (node.nodeName === "style") stream!.openStyles.delete(node);
  },
} as unknown as TreeAdapter<DefaultTreeAdapterMap>;

/** What a pending table character token costs the parser, in characters of text (a token object and its string; see heldTableText). */
const TABLE_TOKEN_COST = 32;

/** The lean parse of the streamed parse in progress (for templateDepthKind). */
let currentParse: LeanParse | null = null;

/**
 * A document parsed as it arrives: give it the text in pieces
 * ({@link write}); it records the start tags that may carry links
 * ({@link tags}, with where they are), as the whole-document parse does.
 *
 * @example
 * ```ts
 * const source = new StreamingSource(true);
 * let pending = "<head><base href=/x/></head><a href=y>";
 * const read = source.write(pending, 0, false); // reads what it can
 * source.write(pending.slice(read), read, true);
 * source.tags.map((t) => t.element.tagName); // ["base", "a"]
 * source.baseIsSettled(); // true
 * ```
 */
export class StreamingSource {
  /** The records made and not yet taken ({@link take}), in source order. */
  readonly tags: TagRecord[];
  /** The tree (its document node and `html` element; see the streaming adapter). */
  readonly document: LeanDocument;
  private readonly parse: LeanParse;
  private readonly parser: Parser<DefaultTreeAdapterMap>;
  private readonly tokenizer: HTMLTokenizer;
  private readonly state: StreamState;
  private ended = false;
  /** The parser's first pending table character token when {@link heldTableText} last counted, and the count so far. */
  private tableTextFirst: unknown = undefined;
  private tableTextTokens = 0;
  private tableTextLength = 0;

  /** `keepStyleText`: false for a reading that reads no link (see StreamState.keepStyleText). */
  constructor(scripting: boolean, keepStyleText = true) {
    this.state = { firstBase: null, ambiguous: false, openStyles: new Set(), keepStyleText };
    this.parse = newParse();
    this.tags = this.parse.tags;
    this.parser = new Parser<DefaultTreeAdapterMap>({ treeAdapter: streamingTreeAdapter, scriptingEnabled: scripting });
    this.parse.parser = this.parser;
    this.tokenizer = installTokenizer(this.parser);
    this.parse.tokenizer = this.tokenizer;
    this.document = this.parser.document as unknown as LeanDocument;
  }

  /** The positions of the records' attributes (see StartTagSource). */
  get positions(): Int32Array {
    return this.parse.positions;
  }

  /**
   * Parses `text`, which starts at offset `origin` of the whole input and
   * continues the input from where the last call stopped; `final` when the
   * input ends with it. Returns how much of `text` was read: the caller
   * starts the next call's text with the rest.
   */
  write(text: string, origin: number, final: boolean): number {
    if (this.ended) throw new Error("StreamingSource: write after the final piece");
    this.ended = final;
    this.parse.origin = origin;
    const outerStream = stream;
    const outerParse = currentParse;
    stream = this.state;
    currentParse = this.parse;
    try {
      return withParse(this.parse, () => this.tokenizer.runChunk(text, final));
    } finally {
      stream = outerStream;
      currentParse = outerParse;
    }
  }

  /**
   * {@link write} for the input not read yet, `unread` (from offset
   * `origin` on): unless `final`, a CR that may be the first half of a
   * CR LF, or a high surrogate, at its end waits for what follows it.
   * Returns how much was read.
   */
  writeUnread(unread: string, origin: number, final: boolean): number {
    let inputEnd = unread.length;
    if (!final && inputEnd > 0) {
      const last = unread.charCodeAt(inputEnd - 1);
      if (last === 0x0d || (last >= 0xd800 && last <= 0xdbff)) inputEnd--;
    }
    return this.write(inputEnd === unread.length ? unread : unread.slice(0, inputEnd), origin, final);
  }

  /** Removes the first `count` records (read by the caller); their attribute positions are reused once none is left. */
  take(count: number): void {
    this.tags.splice(0, count);
    if (this.tags.length === 0) this.parse.positionsLength = 0;
  }

  /** Whether `tag`'s element's text is all read: a `style` element is once the parser has closed it (or the input has ended). */
  isComplete(tag: TagRecord): boolean {
    return this.ended || !this.state.openStyles.has(tag.element);
  }

  /** The first base element with an href in the order the parser made them (see {@link baseIsSettled}); null for none yet. */
  get firstBase(): LeanElement | null {
    return this.state.firstBase;
  }

  /**
   * https://html.spec.whatwg.org/multipage/parsing.html#parsing-main-intabletext —
   * how many characters the parser holds of a run of text in a table:
   * "Append the character token to the pending table character tokens
   * list", inserted (foster-parented, unless all whitespace) only when
   * another token comes. A table holding megabytes of text and no tag
   * holds all of it; the stream bounds it as it bounds a token. Each token
   * held counts {@link TABLE_TOKEN_COST} characters besides its own: text
   * that alternates words and spaces is a token per character.
   */
  get heldTableText(): number {
    const pending = (this.parser as unknown as { pendingCharacterTokens: readonly { readonly chars: string }[] }).pendingCharacterTokens;
    // The parser empties the list (keeping the array) when the run ends: a new first token is a new run.
    if (pending.length === 0 || pending[0] !== this.tableTextFirst || pending.length < this.tableTextTokens) {
      this.tableTextFirst = pending[0];
      this.tableTextTokens = 0;
      this.tableTextLength = 0;
    }
    for (; this.tableTextTokens < pending.length; this.tableTextTokens++) this.tableTextLength += TABLE_TOKEN_COST + pending[this.tableTextTokens]!.chars.length;
    return this.tableTextLength;
  }

  /** Throws a LinksError when {@link heldTableText} is longer than `maxToken`; `line`: where the reading is. */
  checkTableText(maxToken: number, line: number): void {
    if (this.heldTableText <= maxToken) return;
    throw new LinksError(`a run of text in a table (which the parser holds until the run ends, to foster-parent it) is longer than maxToken (${maxToken} characters) at line ${line}: not read`);
  }

  /** Whether a foster-parented node may hold an earlier base element (see StreamState.ambiguous). */
  get ambiguous(): boolean {
    return this.state.ambiguous;
  }

  /** Whether `element` is in the document's tree (the parser can take the body out, for a `frameset`). */
  isInDocument(element: LeanElement): boolean {
    for (let n: LeanParent | null = element.parentNode; n !== null; n = (n as LeanElement).parentNode ?? null) {
      if (n.nodeName === "#document") return true;
    }
    return false;
  }

  /**
   * https://html.spec.whatwg.org/multipage/urls-and-fetching.html#document-base-url —
   * whether the first `base` element with an `href` in tree order is
   * known for good before the input ends: {@link firstBase} is in the
   * document and no later input can put another base element before it
   * in tree order, nor take it out of the tree.
   *
   * Elements the parser makes later go after the ones it has made, in
   * tree order, but for two exceptions: foster parenting inserts before
   * the last open table (so `firstBase` must not be in an open table,
   * and an insertion before one that holds it is {@link ambiguous}), and
   * a `frameset` start tag while the frameset-ok flag is "ok" removes the
   * body (so a base in the body is settled once the flag is "not ok").
   * A base in the head is settled at once: the head only ever grows at
   * its end, and nothing goes before it.
   */
  baseIsSettled(): boolean {
    const base = this.state.firstBase;
    if (base === null || this.state.ambiguous) return false;
    let inDocument = false;
    let inHead = false;
    const open = this.parser.openElements;
    for (let n: LeanParent | null = base.parentNode; n !== null; n = (n as LeanElement).parentNode ?? null) {
      if (n.nodeName === "#document") {
        inDocument = true;
        break;
      }
      const element = n as LeanElement;
      if (element.namespaceURI !== HTML_NAMESPACE) continue;
      if (element.tagName === "head") inHead = true;
      else if (element.tagName === "table" && open.contains(element as never)) return false;
    }
    if (!inDocument) return false;
    return inHead || !(this.parser as unknown as { framesetOk: boolean }).framesetOk;
  }
}
