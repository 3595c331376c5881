/**
 * The command's first import: on a Node.js older than docbase supports, it
 * prints the one sentence that says which version is needed and exits with
 * 2 (a usage error), before any other module of the command is evaluated.
 *
 * @module
 */

import { runtimeVersions, unsupportedNodeMessage } from "../core/runtime-support.ts";

const versions = runtimeVersions();
const message = versions === undefined ? undefined : unsupportedNodeMessage(versions);
if (message !== undefined) {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}
