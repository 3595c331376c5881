/**
 * Reading a file the command was given or found: only a regular file is
 * read (a FIFO would block forever, a device such as /dev/zero never ends),
 * never more than a size cap, and, for files found by a walk of a site, not
 * through a symbolic link (the walk decides about links; a file swapped for
 * a link after the walk is refused, not followed).
 *
 * @module
 */

import { constants } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";
import { formatSize } from "./format.ts";

/** The default size cap of a document the command reads whole (`--max-file-size`): 64 MiB. */
export const DEFAULT_MAX_FILE_SIZE = 64 * 1024 * 1024;

/**
 * Files larger than this are read as streams where a command can
 * (`rewrite`: see link-stream.ts), in bounded memory, whatever their size
 * and `--max-file-size`.
 *
 * @example
 * ```ts
 * (await stat("big.html")).size > STREAMING_SIZE; // true: `rewrite` streams it
 * ```
 */
export const STREAMING_SIZE = 8 * 1024 * 1024;

/**
 * The default of `--max-token`: the longest token (an attribute, a
 * comment, a `<style>` or `<script>` text) of a document read as a stream,
 * in characters: 32 Mi, far beyond what pages hold; a longer one is that
 * file's error, with its line, not memory without bound.
 *
 * @example
 * ```ts
 * new LinkStream({ url, maxToken: DEFAULT_MAX_TOKEN, onLink });
 * ```
 */
export const DEFAULT_MAX_TOKEN = 32 * 1024 * 1024;

/**
 * Options of {@link readRegularFile}.
 *
 * @example
 * ```ts
 * const options: ReadRegularFileOptions = { maxBytes: 1 << 20, noFollow: true };
 * ```
 */
export interface ReadRegularFileOptions {
  /** Larger files are refused. */
  readonly maxBytes: number;
  /** Refuse a symbolic link instead of reading what it points to. */
  readonly noFollow?: boolean | undefined;
}

/**
 * The bytes of the regular file at `path`, or a message that says why it
 * was not read: not a regular file (a FIFO, a device, a socket, a
 * directory), a symbolic link where `noFollow` is set, larger than
 * `maxBytes`, or the system's error.
 *
 * The file is opened non-blocking (a FIFO opens at once instead of waiting
 * for a writer) and checked with `fstat` on the open descriptor, so what is
 * read is what was checked.
 *
 * @example
 * ```ts
 * await readRegularFile("examples/site/index.html", { maxBytes: 1 << 20 }); // Uint8Array
 * await readRegularFile("/dev/zero", { maxBytes: 1 << 20 }); // "not a regular file (a character device)"
 * ```
 */
export async function readRegularFile(path: string, options: ReadRegularFileOptions): Promise<Uint8Array | string> {
  const opened = await openRegularFile(path, options);
  return typeof opened === "string" ? opened : readOpenFile(opened, options);
}

/**
 * Reads the whole of a file {@link openRegularFile} opened, then closes
 * it: its bytes, or a message that says why not (larger than `maxBytes`,
 * or the system's error).
 *
 * @example
 * ```ts
 * const opened = await openRegularFile("examples/site/index.html", {});
 * if (typeof opened !== "string") await readOpenFile(opened, { maxBytes: 1 << 20 }); // Uint8Array
 * ```
 */
export async function readOpenFile(opened: { readonly handle: FileHandle; readonly size: number }, options: Pick<ReadRegularFileOptions, "maxBytes">): Promise<Uint8Array | string> {
  const { handle, size } = opened;
  try {
    if (size > options.maxBytes) {
      return `it is larger (${formatSize(size)}) than the largest file read (${formatSize(options.maxBytes)}; --max-file-size raises it)`;
    }
    // Read at most one byte more than the cap: a file that grew since fstat is refused too.
    const buffer = Buffer.allocUnsafe(Math.min(options.maxBytes + 1, Math.max(size, 0) + 65536));
    let length = 0;
    for (;;) {
      if (length === buffer.length) break;
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > options.maxBytes) return `it grew larger than the largest file read (${formatSize(options.maxBytes)}) while it was read`;
    return new Uint8Array(buffer.buffer, buffer.byteOffset, length);
  } catch (error) {
    return (error as Error).message;
  } finally {
    await handle.close();
  }
}

/**
 * Opens the regular file at `path` for reading, as {@link readRegularFile}
 * does (non-blocking, checked with `fstat` on the open descriptor, not
 * through a symbolic link with `noFollow`): its handle (the caller closes
 * it) and size, or a message that says why not.
 *
 * @example
 * ```ts
 * const opened = await openRegularFile("examples/site/index.html", {});
 * if (typeof opened !== "string") await opened.handle.close();
 * ```
 */
export async function openRegularFile(path: string, options: Pick<ReadRegularFileOptions, "noFollow">): Promise<{ handle: FileHandle; size: number } | string> {
  let flags = constants.O_RDONLY | constants.O_NONBLOCK;
  if (options.noFollow === true) flags |= constants.O_NOFOLLOW;
  let handle;
  try {
    handle = await open(path, flags);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ELOOP" && options.noFollow === true) return "it is a symbolic link (not followed)";
    return (error as Error).message;
  }
  try {
    const stats = await handle.stat();
    if (!stats.isFile()) {
      const what = stats.isFIFO() ? "a FIFO" : stats.isCharacterDevice() ? "a character device" : stats.isBlockDevice() ? "a block device" : stats.isSocket() ? "a socket" : stats.isDirectory() ? "a directory" : "not a file";
      await handle.close();
      return `not a regular file (${what})`;
    }
    return { handle, size: stats.size };
  } catch (error) {
    await handle.close();
    return (error as Error).message;
  }
}
