/**
 * Whether a DOCTYPE token puts the document in quirks mode, as the initial
 * insertion mode decides (the tree construction reads it for one rule: a
 * `table` start tag closes an open `p` unless the document is in quirks mode).
 *
 * https://html.spec.whatwg.org/multipage/parsing.html#the-initial-insertion-mode
 *
 * @module
 */

import { asciiLowercase } from "../core/infra.ts";

/** The public identifiers that start a quirks-mode DOCTYPE, lowercase (compared ASCII case-insensitively). */
const quirksPublicPrefixes: readonly string[] = [
  "+//silmaril//dtd html pro v0r11 19970101//", "-//as//dtd html 3.0 aswedit + extensions//", "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
  "-//ietf//dtd html 2.0 level 1//", "-//ietf//dtd html 2.0 level 2//", "-//ietf//dtd html 2.0 strict level 1//", "-//ietf//dtd html 2.0 strict level 2//",
  "-//ietf//dtd html 2.0 strict//", "-//ietf//dtd html 2.0//", "-//ietf//dtd html 2.1e//", "-//ietf//dtd html 3.0//", "-//ietf//dtd html 3.2 final//",
  "-//ietf//dtd html 3.2//", "-//ietf//dtd html 3//", "-//ietf//dtd html level 0//", "-//ietf//dtd html level 1//", "-//ietf//dtd html level 2//",
  "-//ietf//dtd html level 3//", "-//ietf//dtd html strict level 0//", "-//ietf//dtd html strict level 1//", "-//ietf//dtd html strict level 2//",
  "-//ietf//dtd html strict level 3//", "-//ietf//dtd html strict//", "-//ietf//dtd html//", "-//metrius//dtd metrius presentational//",
  "-//microsoft//dtd internet explorer 2.0 html strict//", "-//microsoft//dtd internet explorer 2.0 html//", "-//microsoft//dtd internet explorer 2.0 tables//",
  "-//microsoft//dtd internet explorer 3.0 html strict//", "-//microsoft//dtd internet explorer 3.0 html//", "-//microsoft//dtd internet explorer 3.0 tables//",
  "-//netscape comm. corp.//dtd html//", "-//netscape comm. corp.//dtd strict html//", "-//o'reilly and associates//dtd html 2.0//",
  "-//o'reilly and associates//dtd html extended 1.0//", "-//o'reilly and associates//dtd html extended relaxed 1.0//",
  "-//sq//dtd html 2.0 hotmetal + extensions//", "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
  "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//", "-//spyglass//dtd html 2.0 extended//", "-//sun microsystems corp.//dtd hotjava html//",
  "-//sun microsystems corp.//dtd hotjava strict html//", "-//w3c//dtd html 3 1995-03-24//", "-//w3c//dtd html 3.2 draft//", "-//w3c//dtd html 3.2 final//",
  "-//w3c//dtd html 3.2//", "-//w3c//dtd html 3.2s draft//", "-//w3c//dtd html 4.0 frameset//", "-//w3c//dtd html 4.0 transitional//",
  "-//w3c//dtd html experimental 19960712//", "-//w3c//dtd html experimental 970421//", "-//w3c//dtd w3 html//", "-//w3o//dtd w3 html 3.0//",
  "-//webtechs//dtd mozilla html 2.0//", "-//webtechs//dtd mozilla html//",
]; // prettier-ignore

/**
 * Whether a DOCTYPE with these fields sets the document to quirks mode
 * (limited-quirks mode is no quirks mode here).
 *
 * @example
 * ```ts
 * isQuirksDoctype({ name: "html", publicId: null, systemId: null, forceQuirks: false }); // false
 * isQuirksDoctype({ name: "html", publicId: "-//W3C//DTD HTML 3.2//EN", systemId: null, forceQuirks: false }); // true
 * ```
 */
export function isQuirksDoctype(doctype: { name: string | null; publicId: string | null; systemId: string | null; forceQuirks: boolean }): boolean {
  if (doctype.forceQuirks || doctype.name !== "html") return true;
  const systemId = doctype.systemId === null ? null : asciiLowercase(doctype.systemId);
  if (systemId === "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") return true;
  if (doctype.publicId === null) return false;
  const publicId = asciiLowercase(doctype.publicId);
  if (publicId === "-//w3o//dtd w3 html strict 3.0//en//" || publicId === "-/w3c/dtd html 4.0 transitional/en" || publicId === "html") return true;
  for (const prefix of quirksPublicPrefixes) if (publicId.startsWith(prefix)) return true;
  // "The system identifier is missing and the public identifier starts with: …"
  return systemId === null && (publicId.startsWith("-//w3c//dtd html 4.01 frameset//") || publicId.startsWith("-//w3c//dtd html 4.01 transitional//"));
}
