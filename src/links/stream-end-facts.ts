/**
 * What a {@link LinkStream} tells at its end beyond its links, for the
 * command's check of a file read as a stream: the document's fragment
 * targets and its `<base href>` elements, gathered as it is read, in
 * memory bounded whatever the document's size.
 *
 * @module
 */

import { serializeURL, type EncodingName, type URLRecord } from "../core/index.ts";
import { type BaseElement, baseElements, streamedBaseElements } from "./base-elements.ts";
import type { DocumentURLs } from "./base-url.ts";
import { addFragmentTargets } from "./fragment-targets.ts";
import type { LeanElement, ParsedSource } from "./html-source.ts";
import type { FragmentTargets } from "./indicated-part.ts";
import type { Link } from "./link-types.ts";

/**
 * A stream's `<base href>` elements (see StreamEndHooks.onBases), with
 * the base URLs they were read with, serialized.
 *
 * @example
 * ```ts
 * const told: StreamedBases = { bases: [], fallbackBaseURL: "https://example.com/", documentBaseURL: "https://example.com/" };
 * ```
 */
export interface StreamedBases {
  readonly bases: readonly BaseElement[];
  readonly fallbackBaseURL: string;
  readonly documentBaseURL: string;
}

/**
 * What a stream is asked to tell at its end (a part of the link-stream's
 * StreamInternals).
 *
 * @example
 * ```ts
 * const hooks: StreamEndHooks = { maxTargetChars: 1 << 20, onTargets: (targets) => console.log(targets?.ids.size) };
 * ```
 */
export interface StreamEndHooks {
  /**
   * At the end, the document's fragment targets (its ids and `a` names, as
   * readLinks' `targets` gives the top document's), or null when they have
   * more than `maxTargetChars` characters: they are gathered as the
   * document is read, the elements only until their place in the tree is
   * final (see StreamingSource.takeSettledTargetCandidates).
   */
  readonly onTargets?: ((targets: FragmentTargets | null) => void) | undefined;
  /** The most characters of ids and names kept for `onTargets` (default: no bound). */
  readonly maxTargetChars?: number | undefined;
  /**
   * At the end, every `<base href>` of the document with what it does (as
   * readLinks' `bases` gives them), or null when the stream cannot tell:
   * it settled its base URL by `maxHold`, an element was foster-parented
   * before a table holding the first base (tree order is then unknown
   * without the tree; a stream that cannot settle its base URL otherwise
   * holds the document whole, and then tells them), or the document has
   * more than {@link MAX_STREAMED_BASES}.
   */
  readonly onBases?: ((bases: StreamedBases | null) => void) | undefined;
}

/**
 * The most `<base href>` elements a stream keeps for its `onBases`: a
 * document with more gets null, in bounded memory.
 *
 * @example
 * ```ts
 * MAX_STREAMED_BASES; // 4096
 * ```
 */
export const MAX_STREAMED_BASES = 4096;

/** The base elements a stream read, with their links, up to {@link MAX_STREAMED_BASES} (the document reader's `baseLinks`). */
class StreamedBaseLinks extends Map<LeanElement, Link> {
  overflow = false;

  override set(element: LeanElement, link: Link): this {
    if (this.size < MAX_STREAMED_BASES) return super.set(element, link);
    this.overflow = true;
    return this;
  }
}

/**
 * The facts of one reading of a stream's document (a stream whose
 * encoding changes starts a new one) for its {@link StreamEndHooks}.
 *
 * @example
 * ```ts
 * const facts = new StreamEndFacts(hooks);
 * reader = new DocumentReader(job, options, batch, urls, facts.baseLinks());
 * facts.addTargets(source.takeSettledTargetCandidates());
 * facts.end(source.targetCandidates, { urls, encoding, known: true });
 * ```
 */
export class StreamEndFacts {
  private readonly hooks: StreamEndHooks | undefined;
  private targets: { readonly ids: Set<string>; readonly names: Set<string> } | null = null;
  private targetChars = 0;
  private targetsOverflow = false;
  private bases: StreamedBaseLinks | null = null;

  constructor(hooks: StreamEndHooks | undefined) {
    this.hooks = hooks;
  }

  /** Whether the stream's parse must note its target candidates. */
  get wantsTargets(): boolean {
    return this.hooks?.onTargets !== undefined;
  }

  /** The map the document reader records the base elements in (null: not asked for). */
  baseLinks(): Map<LeanElement, Link> | null {
    if (this.hooks?.onBases === undefined) return null;
    return (this.bases ??= new StreamedBaseLinks());
  }

  /** Adds the fragment targets among `candidates` (elements whose place in the tree is final), up to the bound. */
  addTargets(candidates: readonly LeanElement[]): void {
    if (this.targetsOverflow || candidates.length === 0 || this.hooks?.onTargets === undefined) return;
    this.targets ??= { ids: new Set(), names: new Set() };
    this.targetChars += addFragmentTargets(candidates, this.targets);
    if (this.targetChars > (this.hooks.maxTargetChars ?? Infinity)) {
      this.targetsOverflow = true;
      this.targets = null;
    }
  }

  /**
   * Tells the hooks, at the stream's end: the targets among the last
   * candidates added to the rest, and the base elements read with `urls`
   * in `encoding` (null when `known` is false: see StreamEndHooks.onBases).
   */
  end(candidates: readonly LeanElement[], read: { readonly urls: DocumentURLs | null; readonly encoding: EncodingName; readonly known: boolean }): void {
    this.tellTargets(candidates);
    const onBases = this.hooks?.onBases;
    if (onBases === undefined) return;
    const links = this.bases;
    const urls = read.urls;
    if (!read.known || links === null || links.overflow || urls === null) onBases(null);
    else onBases(told(streamedBaseElements(links, urls, read.encoding), urls));
  }

  /** Tells the hooks the facts of the document read whole instead (`baseLinks` recorded by its reading). */
  endWhole(parsed: ParsedSource, baseLinks: ReadonlyMap<LeanElement, Link> | undefined, urls: DocumentURLs, encoding: EncodingName): void {
    this.targets = null;
    this.targetChars = 0;
    this.targetsOverflow = false;
    this.tellTargets(parsed.targetCandidates ?? []);
    this.hooks?.onBases?.(told(baseLinks === undefined ? [] : baseElements(parsed, baseLinks, urls, encoding), urls));
  }

  private tellTargets(candidates: readonly LeanElement[]): void {
    const onTargets = this.hooks?.onTargets;
    if (onTargets === undefined) return;
    this.addTargets(candidates);
    onTargets(this.targetsOverflow ? null : (this.targets ?? { ids: new Set(), names: new Set() }));
  }
}

/** The bases told, with the URLs serialized. */
function told(bases: readonly BaseElement[], urls: DocumentURLs): StreamedBases {
  return { bases, fallbackBaseURL: serializeURL(urls.fallbackBaseURL as URLRecord), documentBaseURL: serializeURL(urls.documentBaseURL as URLRecord) };
}
