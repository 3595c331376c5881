/**
 * Standard input as a document: read whole under a size cap (`check -`,
 * `base -`), or, for the commands that stream (`links -`, `rewrite -`),
 * held up to `--max-hold` bytes and past that spooled to a temporary file
 * that is then read as a file is (exact whatever its size), or, with
 * `--no-spool`, handed on as pieces. A spool is removed when it has been
 * read, on error, at exit and on SIGINT or SIGTERM.
 *
 * @module
 */

import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { formatSize } from "./format.ts";

/**
 * Standard input's bytes, read whole, or a message saying it is larger
 * than `maxBytes` (reading stops there: the rest is never held).
 *
 * @example
 * ```ts
 * const bytes = await readStandardInput(64 * 1024 * 1024);
 * if (typeof bytes === "string") fail(bytes); // "it is larger than the largest file read (64 MiB; --max-file-size raises it)"
 * ```
 */
export async function readStandardInput(maxBytes: number, input: AsyncIterable<Uint8Array> = process.stdin): Promise<Uint8Array | string> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for await (const chunk of input) {
    length += chunk.length;
    if (length > maxBytes) return `it is larger than the largest file read (${formatSize(maxBytes)}; --max-file-size raises it)`;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, length);
}

/**
 * A temporary file that holds standard input.
 *
 * @example
 * ```ts
 * const spool: Spool = { path: "/tmp/docbase-stdin-XXXX/stdin.html", size: 3_000_000, remove: () => {} };
 * ```
 */
export interface Spool {
  readonly path: string;
  readonly size: number;
  /** Removes the file and its directory (at once; also done at exit and on SIGINT/SIGTERM). */
  readonly remove: () => void;
}

/**
 * What {@link takeStandardInput} gives: the whole input (it ended within
 * the hold), a spool of it, or (no spool) its pieces: the held ones, then
 * the rest as it comes.
 *
 * @example
 * ```ts
 * const taken: TakenInput = { type: "whole", bytes: new Uint8Array() };
 * ```
 */
export type TakenInput =
  | { readonly type: "whole"; readonly bytes: Uint8Array }
  | { readonly type: "spooled"; readonly spool: Spool }
  | { readonly type: "pieces"; readonly pieces: AsyncIterable<Uint8Array> };

/**
 * A spool that cannot be written: the message names the directory, and
 * what to do.
 *
 * @example
 * ```ts
 * new SpoolError("/tmp", new Error("ENOSPC: no space left on device")).message;
 * // "cannot spool standard input to a temporary file in /tmp: ENOSPC: no space left on device (TMPDIR names another directory; --no-spool streams without one)"
 * ```
 */
export class SpoolError extends Error {
  constructor(directory: string, cause: unknown) {
    super(`cannot spool standard input to a temporary file in ${directory}: ${(cause as Error).message} (TMPDIR names another directory; --no-spool streams without one)`);
  }
}

/** The spools not removed yet (removed at exit and on a signal). */
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const directory of live) rmSync(directory, { recursive: true, force: true });
  live.clear();
}

/** At exit, and on SIGINT or SIGTERM (then the signal's usual end: the process is killed by it again), the spools go. */
function hookRemoval(): void {
  if (hooked) return;
  hooked = true;
  process.once("exit", removeLive);
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    const onSignal = (): void => {
      removeLive();
      process.removeListener(signal, onSignal);
      process.kill(process.pid, signal);
    };
    process.on(signal, onSignal);
  }
}

/**
 * Takes standard input for a command that streams: what arrives within
 * `maxHold` bytes stays in memory; past that, with `spool`, everything is
 * written to a temporary file (in `os.tmpdir()`: TMPDIR) and read to the
 * end, so that it can be read as a file (twice: exact); without, the
 * pieces are handed on as they come. Throws a {@link SpoolError} when the
 * spool cannot be written.
 *
 * @example
 * ```ts
 * const taken = await takeStandardInput({ maxHold: 1 << 20, spool: true });
 * if (taken.type === "spooled") try { read(taken.spool.path); } finally { taken.spool.remove(); }
 * ```
 */
export async function takeStandardInput(options: { readonly maxHold: number; readonly spool: boolean }, input: AsyncIterable<Uint8Array> = process.stdin): Promise<TakenInput> {
  const iterator = input[Symbol.asyncIterator]();
  const held: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const next = await iterator.next();
    if (next.done === true) return { type: "whole", bytes: Buffer.concat(held, length) };
    held.push(next.value);
    length += next.value.length;
    if (length > options.maxHold) break;
  }
  if (!options.spool) {
    return {
      type: "pieces",
      pieces: (async function* () {
        try {
          yield* held;
          held.length = 0;
          for (;;) {
            const next = await iterator.next();
            if (next.done === true) return;
            yield next.value;
          }
        } finally {
          // Read to the end, or left (its reader stopped): standard input is let go, so that the process can end.
          await iterator.return?.();
        }
      })(),
    };
  }
  const directory = os.tmpdir();
  let spoolDirectory: string;
  let fd: number;
  try {
    hookRemoval();
    spoolDirectory = mkdtempSync(path.join(directory, "docbase-stdin-"));
    live.add(spoolDirectory);
    fd = openSync(path.join(spoolDirectory, "stdin.html"), "wx", 0o600);
  } catch (error) {
    throw new SpoolError(directory, error);
  }
  const remove = (): void => {
    rmSync(spoolDirectory, { recursive: true, force: true });
    live.delete(spoolDirectory);
  };
  const write = (bytes: Uint8Array): void => {
    for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
  };
  let size = 0;
  try {
    try {
      for (const chunk of held) write(chunk);
      size = length;
      held.length = 0;
      for (;;) {
        const next = await iterator.next();
        if (next.done === true) break;
        write(next.value);
        size += next.value.length;
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).syscall === "write") throw new SpoolError(directory, error);
      throw error;
    } finally {
      closeSync(fd);
    }
  } catch (error) {
    remove();
    throw error;
  }
  return { type: "spooled", spool: { path: path.join(spoolDirectory, "stdin.html"), size, remove } };
}
