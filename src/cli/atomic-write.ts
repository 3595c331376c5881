/**
 * Atomic file writes: the new content goes to a temporary file in the
 * target's directory (same file system, so the rename is atomic), is
 * flushed to disk, and then renamed over the target. A reader, or a run
 * killed at any moment, sees the old file or the new one, never a part of
 * one. A kill can leave the temporary file behind: its name
 * (`.NAME.docbase-PID-THREAD-SEQ.tmp`, see `TEMP_FILE_PATTERN`) says
 * which process made it, and the next `rewrite` removes those whose
 * process is gone ({@link removeStaleTemporaryFiles}).
 *
 * @module
 */

import { copyFile, mkdir, open, rename, unlink } from "node:fs/promises";
import path from "node:path";
import { threadId } from "node:worker_threads";
import { TEMP_FILE_PATTERN } from "./site.ts";

let sequence = 0;

/** The temporary file's path for a write to `target`. */
function temporaryPath(target: string): string {
  return path.join(path.dirname(target), `.${path.basename(target)}.docbase-${process.pid}-${threadId}-${sequence++}.tmp`);
}

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
export async function writeFileAtomic(target: string, data: Uint8Array, mode?: number): Promise<void> {
  await mkdir(path.dirname(target), { recursive: true });
  const temporary = temporaryPath(target);
  const handle = await open(temporary, "wx", mode ?? 0o666);
  try {
    try {
      await handle.writeFile(data);
      if (mode !== undefined) await handle.chmod(mode);
      // The data must be on disk before the rename makes it the file's, or a
      // crash of the machine could leave an empty file under the old name.
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

/** Whether the process `pid` is running (signal 0 checks without sending anything). */
function isRunning(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, and belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Removes the temporary files (paths relative to `root`, as a walk lists
 * them) that processes no longer running left behind; those of a running
 * process (another rewrite at work) stay. Returns how many were removed.
 *
 * @example
 * ```ts
 * await removeStaleTemporaryFiles("site", (await listSite("site")).temporary); // 3, after a killed run
 * ```
 */
export async function removeStaleTemporaryFiles(root: string, temporary: readonly string[]): Promise<number> {
  let removed = 0;
  for (const rel of temporary) {
    const match = TEMP_FILE_PATTERN.exec(path.basename(rel));
    if (match === null || isRunning(Number(match[1]))) continue;
    try {
      await unlink(path.join(root, rel));
      removed++;
    } catch {
      // Gone already, or not ours to remove: leave it.
    }
  }
  return removed;
}
