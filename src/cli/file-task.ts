/**
 * A command's work on one file, as plain data that crosses between the
 * main process and the worker pool: the file (a {@link FileJob}), what the
 * work gives (a {@link FileResult}), and the reading and failures every
 * command's work shares.
 *
 * @module
 */

import type { FileHandle } from "node:fs/promises";
import { getEncoding } from "../core/index.ts";
import { escapeControls } from "./format.ts";
import { DEFAULT_MAX_FILE_SIZE, DEFAULT_MAX_TOKEN, openRegularFile, readOpenFile, readRegularFile, STREAMING_SIZE } from "./regular-file.ts";
import type { SiteFiles } from "./site.ts";

/**
 * One file to work on.
 *
 * @example
 * ```ts
 * const job: FileJob = {
 *   index: 0, path: "/srv/site/docs/index.html", display: "site/docs/index.html",
 *   url: "https://example.com/docs/", rel: "docs/index.html",
 * };
 * ```
 */
export interface FileJob {
  /** Its place in the output order. */
  readonly index: number;
  /** The path to read ("-" for standard input). */
  readonly path: string;
  /** The path as printed. */
  readonly display: string;
  /** The document's URL. */
  readonly url: string;
  /** Its path relative to the site root, "/"-separated ("" for a single file or standard input). */
  readonly rel: string;
  /** For `rewrite --out`: a file that is not HTML, copied as it is. */
  readonly copy?: true;
  /** A style sheet (a `.css` file), not an HTML document: read whole, by CSS Syntax's rules (see `readStylesheet`). */
  readonly stylesheet?: true;
  /** The size cap (bytes) of a document read; default DEFAULT_MAX_FILE_SIZE. */
  readonly maxBytes?: number;
  /** The longest token (characters) of a document read as a stream; default DEFAULT_MAX_TOKEN. */
  readonly maxToken?: number;
  /** Standard input read as one stream (see TaskEnvironment.pieces): the most held before a `<base>` or the encoding is settled by choice. */
  readonly maxHold?: number;
  /** A file found by a site walk: refuse a symbolic link in its place instead of following it. */
  readonly noFollow?: true;
  /** Run again alone after its worker stopped: if it stops a worker again, it is reported as failed. */
  readonly retried?: true;
}

/**
 * What the work on one file gives.
 *
 * @example
 * ```ts
 * const result: FileResult = { index: 3, out: "site/a.html:1:10: missing-file: ...\n", err: "", counts: { files: 1, problems: 1 } };
 * ```
 */
export interface FileResult {
  readonly index: number;
  /**
   * Text for standard output; UTF-8 bytes when it comes from a worker
   * (encoded there, in parallel, and transferred without a copy).
   */
  readonly out: string | Uint8Array;
  /** Text for standard error (a file that could not be read, decoded or rewritten). */
  readonly err: string;
  /** Counts for the summary, added up over files. */
  readonly counts: Readonly<Record<string, number>>;
}

/**
 * What a run asks of each file, as data a worker can receive: the
 * command's name, by which the worker finds the command's
 * {@link FileWork}, and the command's settings.
 *
 * @example
 * ```ts
 * const task: TaskData = { command: "links" };
 * ```
 */
export interface TaskData {
  readonly command: string;
}

/**
 * What the work on a file may need besides the file: the site's files,
 * for the missing-file check, and standard input (its bytes, or its
 * pieces).
 *
 * @example
 * ```ts
 * const env: TaskEnvironment = { site: siteFilesOnDisk("examples/site") };
 * ```
 */
export interface TaskEnvironment {
  readonly site: SiteFiles | null;
  /** Standard input's bytes, for the job whose path is "-". */
  readonly stdin?: Uint8Array | undefined;
  /**
   * Standard input's pieces, for the job whose path is "-" when it is
   * read as one stream (`--no-spool`, past `--max-hold`: the held pieces,
   * then the rest as it comes); only in a worker (see worker-pool.ts).
   */
  readonly pieces?: AsyncIterable<Uint8Array> | undefined;
  /**
   * Standard output, when the work's output is written as it comes: on the
   * main thread, whose files run one at a time, in order, or from a worker,
   * through the main process. A file read as a stream writes its output
   * here, in bounded memory, instead of in its result.
   */
  readonly write?: ((text: string | Uint8Array) => Promise<void>) | undefined;
}

/**
 * A command's work on one file: what the main thread runs for a few
 * files, and a worker of the pool for many. `Result` is a
 * {@link FileResult} whose own fields are optional: a file whose work
 * failed has none of them.
 *
 * @example
 * ```ts
 * const work: FileWork<{ command: "count" }> = {
 *   run: async (job) => ({ index: job.index, out: "", err: "", counts: { files: 1 } }),
 * };
 * ```
 */
export interface FileWork<Task extends TaskData, Result extends FileResult = FileResult> {
  /** The work on one file, as `task` says. A bad file is a result that says what went wrong. */
  readonly run: (job: FileJob, task: Task, env: TaskEnvironment) => Promise<Result>;
  /** A worker's result as it crosses to the main process (default: as it is; its `out` is encoded after). */
  readonly transfer?: ((result: Result) => Result) | undefined;
}

/**
 * Runs `work` on one file. Never throws: a bug, not a bad file, is that
 * file's failure, and the run goes on with the other files.
 *
 * @example
 * ```ts
 * const result = await runFileWork(linksWork, job, { command: "links", json: true, filter: "all", encoding: undefined, siteRoot: null }, { site: null });
 * result.out; // '{"file":"site/index.html","element":"a",...}\n...'
 * ```
 */
export async function runFileWork<Task extends TaskData, Result extends FileResult>(work: FileWork<Task, Result>, job: FileJob, task: Task, env: TaskEnvironment): Promise<Result> {
  try {
    return await work.run(job, task, env);
  } catch (error) {
    // A failed file's result has none of Result's own fields, which are optional (see FileWork).
    return failedFile(job, "failed", internalErrorMessage(error)) as Result;
  }
}

/**
 * What the command says of an error that is not a bad file's (a bug, or
 * memory run out): its message, never a stack trace naming the machine's
 * files (unless DOCBASE_DEBUG is set); an error of V8's limits on strings
 * and buffers says the document is too large to be read so.
 *
 * @example
 * ```ts
 * internalErrorMessage(new RangeError("Invalid string length")); // "too large to be read in memory (Invalid string length) ..."
 * ```
 */
export function internalErrorMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  if (process.env["DOCBASE_DEBUG"] !== undefined && error instanceof Error && error.stack !== undefined) return `internal error: ${error.stack}`;
  if (error instanceof RangeError && /string length|string longer|allocation failed|Array buffer|Invalid array length/i.test(message)) {
    return `too large to be read in memory (${message}); --max-file-size lowers what is read whole`;
  }
  return `internal error: ${message} (DOCBASE_DEBUG=1 prints where)`;
}

/**
 * Why a file's work failed: it could not be read, its encoding cannot be
 * decoded, or the work itself failed (the file could not be rewritten or
 * written).
 *
 * @example
 * ```ts
 * const kind: FailureKind = "undecodable";
 * ```
 */
export type FailureKind = "unreadable" | "undecodable" | "failed";

/**
 * The result of a file whose work failed: the message on standard error,
 * and the failure counted (see {@link failures}). `verb` says what could
 * not be done ("cannot be read", "cannot be decoded", "failed" by default).
 *
 * @example
 * ```ts
 * failedFile(job, "unreadable", "EACCES: permission denied").err;
 * // "docbase: site/a.html: cannot be read: EACCES: permission denied\n"
 * ```
 */
export function failedFile(job: FileJob, kind: FailureKind, message: string, verb?: string): FileResult {
  verb ??= kind === "unreadable" ? "cannot be read" : kind === "undecodable" ? "cannot be decoded" : "failed";
  return { index: job.index, out: "", err: `docbase: ${escapeControls(job.display)}: ${verb}: ${escapeControls(message)}\n`, counts: { files: 1, [kind]: 1 } };
}

/**
 * How many files of a run failed (could not be read, decoded, rewritten
 * or written), from its summed counts: a run with any exits with 1.
 *
 * @example
 * ```ts
 * failures({ files: 3, unreadable: 1, failed: 1 }); // 2
 * ```
 */
export function failures(counts: Readonly<Record<string, number>>): number {
  return (counts["unreadable"] ?? 0) + (counts["undecodable"] ?? 0) + (counts["failed"] ?? 0);
}

/**
 * A module loaded the first time the work on a file asks for it, and
 * only then.
 *
 * Optimisation: the main thread loads a command's module in every run,
 * and the library the work reads files with (the links layer and its
 * parser) costs as much to load as the rest of the command.
 * It loads in the thread that reads files — a worker, or the main thread
 * when it does the work itself — and not in a main thread that hands the
 * files to workers.
 *
 * @example
 * ```ts
 * const library = loadOnce(() => import("../links/index.ts"));
 * const { extractLinks } = await library(); // loaded now; at once the next time
 * ```
 */
export function loadOnce<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () => (loaded ??= load());
}

/** The links layer's encoding sniffing, loaded where files are read (see loadOnce). */
const links = loadOnce(() => import("../links/internal.ts"));

/**
 * Why a document whose encoding is the replacement encoding fails: it
 * decodes to one U+FFFD, with nothing in it to read.
 *
 * @example
 * ```ts
 * failedFile(job, "undecodable", UNDECODABLE).err;
 * // "docbase: site/a.html: cannot be decoded: its encoding is the replacement encoding (...): it cannot be decoded\n"
 * ```
 */
export const UNDECODABLE = "its encoding is the replacement encoding (e.g. a charset of ISO-2022-KR or HZ-GB-2312): it cannot be decoded";

/**
 * Why a document cannot be decoded, or null when it can, for the work
 * that must know before it writes anything (rewrite, and a stream):
 * {@link UNDECODABLE} when the HTML Standard's encoding sniffing (the
 * links layer's: a BOM, else `encoding`, else the prescan of the first
 * 1024 bytes) gives the replacement encoding. Work that reads the whole
 * document first (links, check, base) takes this from its one reading
 * (`readLinks`' `undecodable`), which also sees a `<meta>` past the
 * prescan.
 *
 * @example
 * ```ts
 * await undecodable(new TextEncoder().encode('<meta charset="iso-2022-kr">'), undefined); // UNDECODABLE
 * ```
 */
export async function undecodable(bytes: Uint8Array, encoding: string | undefined): Promise<string | null> {
  const { sniffEncoding } = await links();
  return sniffEncoding(bytes, encoding === undefined ? undefined : (getEncoding(encoding) ?? undefined)).encoding === "replacement" ? UNDECODABLE : null;
}

/**
 * A job's document (standard input's bytes for "-"), read as a regular
 * file under its size cap: its bytes, or the failed result that says why
 * not.
 *
 * @example
 * ```ts
 * const bytes = await readDocument(job, env);
 * if (!(bytes instanceof Uint8Array)) return bytes; // "cannot be read"
 * ```
 */
export async function readDocument(job: FileJob, env: TaskEnvironment): Promise<Uint8Array | FileResult> {
  const bytes = job.path === "-" ? (env.stdin ?? new Uint8Array()) : await readRegularFile(job.path, { maxBytes: job.maxBytes ?? DEFAULT_MAX_FILE_SIZE, noFollow: job.noFollow === true });
  return typeof bytes === "string" ? failedFile(job, "unreadable", bytes) : bytes;
}

/**
 * A document too large to read whole, open to be read as a stream (twice:
 * see document-stream.ts's `readTwice`); the reader closes `handle`.
 *
 * @example
 * ```ts
 * const opened: OpenedDocument = { handle, size: 2 ** 30, maxBytes: 64 * 1024 * 1024, maxToken: 32 * 1024 * 1024 };
 * ```
 */
export interface OpenedDocument {
  readonly handle: FileHandle;
  readonly size: number;
  /** The job's size cap of a document read whole. */
  readonly maxBytes: number;
  /** The job's longest token. */
  readonly maxToken: number;
}

/**
 * A job's document as {@link readDocument} reads it when it is at most
 * STREAMING_SIZE bytes (its bytes, or the failed result that says why
 * not); a larger file, open, to be read as a stream, in bounded memory
 * whatever its size (`--max-file-size` caps only documents read whole).
 *
 * @example
 * ```ts
 * const document = await openDocument(job, env);
 * if (document instanceof Uint8Array) read(document);
 * else if ("handle" in document) await stream(document);
 * else return document; // "cannot be read"
 * ```
 */
export async function openDocument(job: FileJob, env: TaskEnvironment): Promise<Uint8Array | OpenedDocument | FileResult> {
  if (job.path === "-") return readDocument(job, env);
  const opened = await openRegularFile(job.path, { noFollow: job.noFollow === true });
  if (typeof opened === "string") return failedFile(job, "unreadable", opened);
  const maxBytes = job.maxBytes ?? DEFAULT_MAX_FILE_SIZE;
  if (opened.size > STREAMING_SIZE) return { ...opened, maxBytes, maxToken: job.maxToken ?? DEFAULT_MAX_TOKEN };
  const bytes = await readOpenFile(opened, { maxBytes });
  return typeof bytes === "string" ? failedFile(job, "unreadable", bytes) : bytes;
}
