/**
 * Lines of text kept in bounded memory: held up to a number of characters,
 * past that written to a file of a temporary directory made when first
 * needed, and read back, in order, as often as asked.
 *
 * @module
 */

import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";
import path from "node:path";
import { StringDecoder } from "node:string_decoder";
import { getHeapStatistics } from "node:v8";
import { makeTemporaryDirectory, type TemporaryDirectory, TemporaryFileError } from "../../temporary-directory.ts";

/**
 * The characters a spool holds before it writes to its file, and an
 * external sort's run (see external-sort.ts): 16 Mi, or 1/128 of the
 * heap's bytes when that is less (a run holds a few spools and runs at
 * once, of up to two bytes a character: a capped heap keeps room).
 *
 * @example
 * ```ts
 * new LineSpool(place, "findings", SPOOL_MEMORY_CHARS); // the default
 * ```
 */
export const SPOOL_MEMORY_CHARS = Math.min(16 * 1024 * 1024, Math.floor(getHeapStatistics().heap_size_limit / 128));

/** The characters gathered before a write to the file. */
const WRITE_CHARS = 256 * 1024;

/** The bytes read from the file at a time. */
const READ_BYTES = 64 * 1024;

/**
 * Where spools write: a temporary directory, made at the first spool that
 * needs a file (a run whose lines fit in memory makes none), and removed
 * with {@link SpoolDirectory.remove}, at exit, or on SIGINT/SIGTERM.
 *
 * @example
 * ```ts
 * const place = new SpoolDirectory("check's findings");
 * try { use(new LineSpool(place, "findings")); } finally { place.remove(); }
 * ```
 */
export class SpoolDirectory {
  private made: TemporaryDirectory | null = null;
  private files = 0;
  /** What the spools hold, for the error that says they cannot be written. */
  readonly purpose: string;

  constructor(purpose: string) {
    this.purpose = purpose;
  }

  /** A new file's path in the directory (made now, if it is not yet). */
  file(name: string): string {
    this.made ??= makeTemporaryDirectory("docbase-check-", this.purpose);
    return path.join(this.made.path, `${this.files++}-${name}`);
  }

  /** The error of a file that cannot be written. */
  failure(cause: unknown): TemporaryFileError {
    return new TemporaryFileError(path.dirname(this.made?.path ?? "."), this.purpose, cause);
  }

  /** Removes the directory and every spool in it. */
  remove(): void {
    this.made?.remove();
    this.made = null;
  }
}

/**
 * An append-only list of lines (none holds a line feed), in memory up to
 * `memoryChars` characters and in a file past that.
 *
 * @example
 * ```ts
 * const spool = new LineSpool(place, "findings");
 * spool.append("one\ntwo\n");
 * [...spool.lines()]; // ["one", "two"]
 * ```
 */
export class LineSpool {
  private readonly place: SpoolDirectory;
  private readonly name: string;
  private readonly memoryChars: number;
  /** The text appended and not yet written (all of it, while there is no file): whole lines, each ended by a line feed. */
  private held: string[] = [];
  private heldChars = 0;
  private file: string | null = null;
  private fd = -1;
  /** How many lines were appended. */
  count = 0;

  constructor(place: SpoolDirectory, name: string, memoryChars = SPOOL_MEMORY_CHARS) {
    this.place = place;
    this.name = name;
    this.memoryChars = memoryChars;
  }

  /** Whether every line appended is held in memory (none was written to the file). */
  get inMemory(): boolean {
    return this.file === null;
  }

  /** Appends whole lines, each ended by a line feed. */
  append(text: string): void {
    if (text === "") return;
    // Optimisation: kept as it came, not line by line (a file's findings come as one text).
    for (let at = text.indexOf("\n"); at !== -1; at = text.indexOf("\n", at + 1)) this.count++;
    this.hold(text);
  }

  /** Appends one line (without its line feed). */
  appendLine(line: string): void {
    this.count++;
    this.hold(`${line}\n`);
  }

  /** Appends lines (without their line feeds). */
  appendLines(lines: readonly string[]): void {
    for (const line of lines) this.appendLine(line);
  }

  /** The lines appended so far, in order, without their line feeds. */
  *lines(): Generator<string> {
    if (this.file === null) {
      for (const text of this.held) yield* linesOf(text);
      return;
    }
    this.write();
    const fd = openSync(this.file, "r");
    try {
      const buffer = Buffer.allocUnsafe(READ_BYTES);
      const decoder = new StringDecoder("utf8");
      // The start of a line longer than a read, a piece a read: joined once, at its end (not again at each read).
      const partial: string[] = [];
      let position = 0;
      for (;;) {
        const read = readSync(fd, buffer, 0, READ_BYTES, position);
        if (read === 0) break;
        position += read;
        const text = decoder.write(buffer.subarray(0, read));
        const first = text.indexOf("\n");
        if (first === -1) {
          partial.push(text);
          continue;
        }
        partial.push(text.slice(0, first));
        yield partial.join("");
        partial.length = 0;
        const last = text.lastIndexOf("\n") + 1;
        yield* linesOf(text.slice(first + 1, last));
        if (last < text.length) partial.push(text.slice(last));
      }
    } finally {
      closeSync(fd);
    }
  }

  private hold(text: string): void {
    this.held.push(text);
    this.heldChars += text.length;
    if (this.heldChars > (this.file === null ? this.memoryChars : WRITE_CHARS)) this.write();
  }

  /** Writes what is held to the file (made now if there is none). */
  private write(): void {
    try {
      if (this.fd === -1) {
        this.file = this.place.file(this.name);
        this.fd = openSync(this.file, "wx", 0o600);
      }
      if (this.heldChars === 0) return;
      const bytes = Buffer.from(this.held.join(""), "utf8");
      this.held = [];
      this.heldChars = 0;
      for (let at = 0; at < bytes.length; ) at += writeSync(this.fd, bytes, at, bytes.length - at);
    } catch (error) {
      if (error instanceof TemporaryFileError) throw error;
      throw this.place.failure(error);
    }
  }

  /** Forgets the lines: the memory and the file go. */
  remove(): void {
    this.held = [];
    this.heldChars = 0;
    if (this.fd !== -1) closeSync(this.fd);
    this.fd = -1;
    if (this.file !== null) rmSync(this.file, { force: true });
    this.file = null;
  }
}

/** The lines of `text`, whole lines each ended by a line feed, without their line feeds. */
function* linesOf(text: string): Generator<string> {
  for (let at = 0; at < text.length; ) {
    const next = text.indexOf("\n", at);
    yield text.slice(at, next);
    at = next + 1;
  }
}
