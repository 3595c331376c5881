#!/usr/bin/env node
/**
 * The `docbase` command's entry point (package.json `bin`): runs the
 * command line and exits with its code. See `program.ts` for the commands.
 *
 * @module
 */

// First: on a Node.js older than `engines`, stop with one sentence naming the version needed.
import "./supported-runtime.ts";

import { run } from "./program.ts";

// A reader that stops reading (`docbase links site | head`) is not an error.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(process.exitCode ?? 0);
  throw error;
});

process.exitCode = await run(process.argv);
