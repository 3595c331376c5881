/**
 * The config file, `docbase.config.json`: the flags of the commands as
 * JSON keys, found from the input's directory upwards (or named by
 * `--config`), applied under the flags given on the command line.
 *
 * @module
 */

import { existsSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import type { Command, Option } from "commander";
import { UsageError } from "./errors.ts";

/**
 * The name of the config file looked for.
 *
 * @example
 * ```ts
 * CONFIG_FILE_NAME; // "docbase.config.json"
 * ```
 */
export const CONFIG_FILE_NAME = "docbase.config.json";

/**
 * The config file for `input`: `explicit` when given (it must exist), else
 * the first `docbase.config.json` in the input's directory (a directory
 * input's own; a file's directory; for standard input, the working
 * directory) or one of its ancestors; null when there is none.
 *
 * @example
 * ```ts
 * findConfigFile("site/public", undefined); // "site/docbase.config.json" when that is the nearest
 * ```
 */
export function findConfigFile(input: string, explicit: string | undefined): string | null {
  if (explicit !== undefined) {
    if (!existsSync(explicit)) throw new UsageError(`--config: no such file: ${JSON.stringify(explicit)}`);
    return explicit;
  }
  let dir = path.resolve(input === "-" ? "." : input);
  try {
    if (!statSync(dir).isDirectory()) dir = path.dirname(dir);
  } catch {
    dir = path.dirname(dir);
  }
  for (;;) {
    const candidate = path.join(dir, CONFIG_FILE_NAME);
    if (existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** An option's key in the config file: its attribute name (`--exclude-path`: "excludePath", `--no-fragments`: "fragments"). */
function keyOf(option: Option): string {
  return option.attributeName();
}

/** A config value as the option takes it: a boolean for a flag; text (or a number) through the option's parser; a list for a repeatable one. */
function optionValue(option: Option, value: unknown, where: string): unknown {
  const takesValue = option.required || option.optional;
  if (!takesValue) {
    if (typeof value !== "boolean") throw new UsageError(`${where}: must be true or false, not ${JSON.stringify(value)}`);
    return value;
  }
  const items = Array.isArray(value) ? value : [value];
  let result: unknown = undefined;
  for (const item of items) {
    if (typeof item !== "string" && typeof item !== "number") throw new UsageError(`${where}: must be text${Array.isArray(value) ? "" : " or a list of texts"}, not ${JSON.stringify(item)}`);
    const text = String(item);
    try {
      result = option.parseArg === undefined ? text : option.parseArg(text, result);
    } catch (error) {
      throw new UsageError(`${where}: ${(error as Error).message}`);
    }
  }
  if (Array.isArray(value) && option.parseArg === undefined) throw new UsageError(`${where}: takes one value, not a list`);
  return result;
}

/**
 * Applies the config file `file` to `command` (the command being run, of
 * `commands`, every command of the program): each key is an option of a
 * command, by its attribute name (camelCase, as `--help` lists the flag);
 * top-level keys apply to every command that has that option, and an
 * object under a command's name (`"check": { ... }`) to that command only,
 * over the top level. A flag given on the command line wins. An unknown
 * key, a key of another command inside a command's object, or a top-level
 * key whose flag differs between commands (`check --exclude <regex>`,
 * `rewrite --exclude <pattern>`) is a usage error naming it.
 *
 * @example
 * ```ts
 * // docbase.config.json: { "url": "https://example.com/", "check": { "exclude": ["^https://twitter\\.com/"], "strict": true } }
 * applyConfigFile("docbase.config.json", checkCommand, program.commands);
 * ```
 */
export function applyConfigFile(file: string, command: Command, commands: readonly Command[]): void {
  let config: unknown;
  try {
    config = JSON.parse(readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`${file}: not a JSON file: ${(error as Error).message}`);
  }
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new UsageError(`${file}: must be a JSON object`);
  // Each key's flags across the commands: a top-level key must mean one thing for all.
  const everyKey = new Map<string, Set<string>>();
  for (const c of commands) {
    for (const option of c.options) {
      const key = keyOf(option);
      const flags = everyKey.get(key) ?? new Set<string>();
      flags.add(option.flags);
      everyKey.set(key, flags);
    }
  }
  const own = new Map<string, Option>();
  for (const option of command.options) own.set(keyOf(option), option);
  const apply = (key: string, value: unknown, where: string): void => {
    const option = own.get(key);
    if (option === undefined || key === "config") return;
    const source = command.getOptionValueSource(key);
    if (source === "cli" || source === "env") return;
    command.setOptionValueWithSource(key, optionValue(option, value, where), "config");
  };
  const sections: [string, Record<string, unknown>][] = [];
  for (const [key, value] of Object.entries(config)) {
    const section = commands.find((c) => c.name() === key);
    if (section !== undefined) {
      if (typeof value !== "object" || value === null || Array.isArray(value)) throw new UsageError(`${file}: "${key}" must be an object of ${key}'s options`);
      for (const inner of Object.keys(value)) {
        if (!section.options.some((o) => keyOf(o) === inner)) throw new UsageError(`${file}: unknown key "${key}.${inner}": docbase ${key} has no such option (see docbase ${key} --help)`);
      }
      if (section === command) sections.push([key, value as Record<string, unknown>]);
      continue;
    }
    const flags = everyKey.get(key);
    if (flags === undefined) throw new UsageError(`${file}: unknown key "${key}": no command has such an option (see docbase <command> --help)`);
    if (flags.size > 1) throw new UsageError(`${file}: "${key}" means different things to different commands (${[...flags].join(", ")}): put it under a command's name, e.g. { "check": { "${key}": … } }`);
    apply(key, value, `${file}: "${key}"`);
  }
  for (const [name, values] of sections) for (const [key, value] of Object.entries(values)) apply(key, value, `${file}: "${name}.${key}"`);
}
