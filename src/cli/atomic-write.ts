/**
 * Atomic file writes: the new content goes to a temporary file in the
 * target's directory (same file system, so the rename is atomic), is
 * flushed to disk, and then renamed over the target. A reader, or a run
 * killed at any moment, sees the old file or the new one, never a part of
 * one. A kill can leave the temporary file behind: its name
 * (`.NAME.docbase-PID-THREAD-SEQ-MARK.tmp`, see `TEMP_FILE_PATTERN`) says
 * which process made it, and its MARK, a digest of the rest of the name,
 * that docbase made it (a file that merely looks like one is not ours);
 * the next `rewrite` removes those whose process is gone
 * ({@link removeStaleTemporaryFiles}).
 *
 * @module
 */

import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyFile, lstat, mkdir, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { threadId } from "node:worker_threads";

/**
 * The names of the temporary files an atomic write makes beside its
 * target (`.NAME.docbase-PID-THREAD-SEQ-MARK.tmp`); use
 * {@link isTemporaryName} to tell one of ours (its mark checks) from a
 * look-alike.
 *
 * @example
 * ```ts
 * TEMP_FILE_PATTERN.exec(temporaryName("index.html", 4242, 1, 7))?.[2]; // "4242" (the process)
 * TEMP_FILE_PATTERN.test("index.html"); // false
 * ```
 */
export const TEMP_FILE_PATTERN: RegExp = /^\.(.*)\.docbase-(\d+)-(\d+)-(\d+)-([0-9a-f]{16})\.tmp$/;

/** The mark of a temporary file's name: a digest of the rest of it. */
function markOf(name: string, pid: string | number, thread: string | number, seq: string | number): string {
  return createHash("sha256").update(`docbase temporary file\0${name}\0${pid}\0${thread}\0${seq}`).digest("hex").slice(0, 16);
}

/**
 * The name of the temporary file of a write to the file named `name`, by
 * process `pid`, thread `thread`, its `seq`th write.
 *
 * @example
 * ```ts
 * temporaryName("index.html", 4242, 0, 7); // ".index.html.docbase-4242-0-7-<16 hex digits>.tmp"
 * ```
 */
export function temporaryName(name: string, pid: number, thread: number, seq: number): string {
  return `.${name}.docbase-${pid}-${thread}-${seq}-${markOf(name, pid, thread, seq)}.tmp`;
}

/**
 * Whether `name` is the name of a temporary file docbase made (its mark
 * checks): a site walk leaves those out, and `rewrite` removes those of
 * processes that are gone; a file that only looks like one is the site's.
 *
 * @example
 * ```ts
 * isTemporaryName(temporaryName("a.html", 1, 0, 0)); // true
 * isTemporaryName(".a.html.docbase-999999-0-0.tmp"); // false: no mark
 * ```
 */
export function isTemporaryName(name: string): boolean {
  const match = TEMP_FILE_PATTERN.exec(name);
  return match !== null && match[5] === markOf(match[1]!, match[2]!, match[3]!, match[4]!);
}

let sequence = 0;

/** The temporary file's path for a write to `target`. */
function temporaryPath(target: string): string {
  return path.join(path.dirname(target), temporaryName(path.basename(target), process.pid, threadId, sequence++));
}

/**
 * What a file is written with: its bytes, or a function that writes them
 * in pieces (a stream's output) with `write`, and returns whether the file
 * is to be written after all (false: the temporary file is removed, and
 * the target left as it was).
 *
 * @example
 * ```ts
 * const content: FileContent = async (write) => {
 *   await write(new TextEncoder().encode("<a href=/>"));
 *   return true;
 * };
 * ```
 */
export type FileContent = Uint8Array | ((write: (chunk: Uint8Array) => Promise<void>) => Promise<boolean>);

/**
 * Writes `data` to `target` atomically (see the module comment), creating
 * the target's directory if needed. The new file gets `mode` (the
 * original file's permission bits), else the default for new files.
 *
 * @example
 * ```ts
 * await writeFileAtomic("site/index.html", new TextEncoder().encode("<a href=/>"), 0o644);
 * // site/.index.html.docbase-4242-0-0.tmp is written, synced, then renamed to site/index.html
 * ```
 */
export async function writeFileAtomic(target: string, data: FileContent, mode?: number, owner?: { readonly uid: number; readonly gid: number }): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = temporaryPath(target);
  const handle = await open(temporary, "wx", mode ?? 0o666);
  try {
    let keep = true;
    try {
      if (typeof data === "function") {
        // Each piece from where the last one ended (writeFile writes all of it, from the current position).
        keep = await data(async (chunk) => {
          if (chunk.length > 0) await handle.writeFile(chunk);
        });
      } else {
        await handle.writeFile(data);
      }
      if (!keep) return;
      if (owner !== undefined) {
        // The old file's owner and group, where this process may give them (root may; others may keep
        // their own uid and one of their groups); otherwise the new file is the writer's, as any editor's.
        await handle.chown(owner.uid, owner.gid).catch(() => undefined);
      }
      // After chown, which may clear set-user-ID and set-group-ID bits.
      if (mode !== undefined) await handle.chmod(mode);
      // The data must be on disk before the rename makes it the file's, or a
      // crash of the machine could leave an empty file under the old name.
      await handle.datasync();
    } finally {
      await handle.close();
      if (!keep) await unlink(temporary).catch(() => undefined);
    }
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Replaces the content of the existing file `target` with `data`, atomically
 * (through {@link writeFileAtomic}), as the same file as far as a rename
 * allows: the new file keeps the old one's permission bits and, where the
 * process may give it (root, or the owner keeping their own group), its
 * owner and group. Two cases are refused with an error that says why, and
 * the file is left as it was:
 *
 * - a file with more than one hard link: a rename would give `target` a new
 *   inode and leave the other names with the old content (the links would
 *   be split), and writing in place would lose atomicity;
 * - a file without the owner's write permission (0444): the user marked it
 *   read-only, and a rename would replace it all the same.
 *
 * @example
 * ```ts
 * await replaceFileAtomic("site/index.html", new TextEncoder().encode("<a href=/>"));
 * ```
 */
export async function replaceFileAtomic(target: string, data: FileContent): Promise<void> {
  const before = await lstat(target);
  if (before.nlink > 1) throw new Error(`it has ${before.nlink} hard links, and replacing it would split them: left as it was`);
  if ((before.mode & 0o200) === 0) throw new Error(`it is read-only (mode ${(before.mode & 0o7777).toString(8).padStart(4, "0")}): left as it was`);
  await writeFileAtomic(target, data, before.mode & 0o7777, { uid: before.uid, gid: before.gid });
}

/**
 * Copies `source` to `target` atomically, as {@link writeFileAtomic} writes.
 *
 * @example
 * ```ts
 * await copyFileAtomic("site/img/logo.png", "out/img/logo.png"); // out/img/ is made if needed
 * ```
 */
export async function copyFileAtomic(source: string, target: string): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = temporaryPath(target);
  try {
    await copyFile(source, temporary);
    const handle = await open(temporary, "r+");
    try {
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/**
 * Whether the process `pid` is running (signal 0 checks without sending
 * anything). A zombie — a process that has ended and that no parent has
 * reaped yet, as a killed command's workers can be where the init process
 * does not reap orphans — is not running: on Linux its state in
 * /proc/<pid>/stat says so.
 */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists, and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "latin1");
    // "pid (comm) state …": the state follows the last ")".
    return stat.charAt(stat.lastIndexOf(")") + 2) !== "Z";
  } catch {
    return true;
  }
}

/**
 * Removes the temporary files (paths relative to `root`, as a walk lists
 * them) that processes no longer running left behind; those of a running
 * process (another rewrite at work) stay, and so does any file whose name
 * is not one docbase made ({@link isTemporaryName}). Returns how many were
 * removed. Only ever called on a tree docbase writes into (the site in
 * place, or `--out`), never on the input of a run with `--out`.
 *
 * @example
 * ```ts
 * await removeStaleTemporaryFiles("site", (await listSite("site")).temporary); // 3, after a killed run
 * ```
 */
export async function removeStaleTemporaryFiles(root: string, temporary: readonly string[]): Promise<number> {
  let removed = 0;
  for (const rel of temporary) {
    const name = path.basename(rel);
    const match = TEMP_FILE_PATTERN.exec(name);
    if (match === null || !isTemporaryName(name) || isRunning(Number(match[2]))) continue;
    try {
      await unlink(path.join(root, rel));
      removed++;
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}
