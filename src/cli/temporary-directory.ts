/**
 * A temporary directory of the command's own, in `os.tmpdir()` (TMPDIR):
 * removed when asked, at exit, and on SIGINT or SIGTERM; one that cannot
 * be made or written is an error naming the directory.
 *
 * @module
 */

import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A file in a temporary directory that cannot be made or written (no
 * temporary directory, a full disk): the message names the directory,
 * what the file was for, and what to do.
 *
 * @example
 * ```ts
 * new TemporaryFileError("/tmp", "check's findings", new Error("ENOSPC: no space left on device")).message;
 * // "cannot write check's findings to a temporary file in /tmp: ENOSPC: no space left on device (TMPDIR names another directory)"
 * ```
 */
export class TemporaryFileError extends Error {
  constructor(directory: string, purpose: string, cause: unknown) {
    super(`cannot write ${purpose} to a temporary file in ${directory}: ${(cause as Error).message} (TMPDIR names another directory)`, { cause });
  }
}

/**
 * A temporary directory: its path, and its removal.
 *
 * @example
 * ```ts
 * const directory: TemporaryDirectory = { path: "/tmp/docbase-check-XXXX", remove: () => {} };
 * ```
 */
export interface TemporaryDirectory {
  readonly path: string;
  /** Removes the directory and its files (at once; also done at exit and on SIGINT/SIGTERM). */
  readonly remove: () => void;
}

/** The directories not removed yet (removed at exit and on a signal). */
const live = new Set<string>();
let hooked = false;

function removeLive(): void {
  for (const directory of live) rmSync(directory, { recursive: true, force: true });
  live.clear();
}

/** At exit, and on SIGINT or SIGTERM (then the signal's usual end: the process is killed by it again), the directories go. */
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
 * Makes a temporary directory named `prefix` and a random tail, for
 * `purpose` (said by the error when it cannot be made: a
 * {@link TemporaryFileError}).
 *
 * @example
 * ```ts
 * const directory = makeTemporaryDirectory("docbase-check-", "check's findings");
 * try { writeFileSync(path.join(directory.path, "findings"), text); } finally { directory.remove(); }
 * ```
 */
export function makeTemporaryDirectory(prefix: string, purpose: string): TemporaryDirectory {
  const parent = os.tmpdir();
  let made: string;
  try {
    hookRemoval();
    made = mkdtempSync(path.join(parent, prefix));
  } catch (error) {
    throw new TemporaryFileError(parent, purpose, error);
  }
  live.add(made);
  return {
    path: made,
    remove: () => {
      rmSync(made, { recursive: true, force: true });
      live.delete(made);
    },
  };
}
