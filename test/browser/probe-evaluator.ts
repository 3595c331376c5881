/**
 * The program that runs inside a window (Chromium's, through
 * `page.evaluate`; or jsdom's, called directly): for each document, run its
 * actions in order and collect every read.
 *
 * It must stay self-contained: Playwright sends its source text to the
 * browser, so it may use nothing from outside this function (no imports, no
 * helpers, no globals but the window it is given).
 *
 * @module
 */

import type { Action, FramePath, Observation } from "./cases.ts";

/** One document's program: where it is (iframe ids from the window's document) and its actions. */
export interface DocumentProgram {
  readonly id: string;
  readonly root: FramePath;
  readonly actions: readonly Action[];
}

// The tsconfig has no DOM library: these are the few DOM members used here.
export interface MiniElement {
  getAttribute(name: string): string | null;
  setAttribute(name: string, value: string): void;
  removeAttribute(name: string): void;
  remove(): void;
  insertAdjacentHTML(where: string, html: string): void;
  addEventListener(type: string, listener: () => void, options?: { once: boolean }): void;
  readonly contentDocument?: MiniDocument | null;
}
export interface MiniDocument {
  getElementById(id: string): MiniElement | null;
  createElement(tag: string): MiniElement;
  readonly head: MiniElement | null;
  readonly body: MiniElement | null;
  readonly baseURI: string;
  readonly URL: string;
  readonly characterSet: string;
}
export interface MiniWindow {
  readonly document: MiniDocument;
  setTimeout(callback: () => void, ms: number): unknown;
}

/**
 * Replaces the DOM's own getters for reads (how a docbase layer answers over
 * a DOM): each returns the observation, or undefined for a read it does not
 * answer. Only callers in Node pass hooks; the browser runs the DOM's own.
 */
export interface ReadHooks {
  get(doc: MiniDocument, element: MiniElement, action: Extract<Action, { t: "get" }>): Observation | undefined;
  doc(doc: MiniDocument, action: Extract<Action, { t: "doc" }>): Observation | undefined;
  set(doc: MiniDocument, action: Extract<Action, { t: "set" }>): Observation | undefined;
}

/**
 * Runs every program in `window` and returns case id → observation.
 * Errors are observations (`err`), never exceptions, so one bad case cannot
 * hide the others.
 */
export async function evaluatePrograms(window: MiniWindow, programs: readonly DocumentProgram[], hooks?: ReadHooks): Promise<Record<string, Observation>> {
  const out: Record<string, Observation> = {};
  const held: Record<string, MiniDocument> = {};
  for (const program of programs) {
    const resolve = (f: FramePath): MiniDocument => {
      let doc: MiniDocument = window.document;
      const path = [...program.root, ...f];
      for (const step of path) {
        if (step.startsWith("@")) {
          const h = held[step];
          if (h === undefined) throw new Error(`no held document ${step}`);
          doc = h;
          continue;
        }
        const frame = doc.getElementById(step);
        const next = frame?.contentDocument;
        if (next === undefined || next === null) throw new Error(`no frame #${step}`);
        doc = next;
      }
      return doc;
    };
    const element = (doc: MiniDocument, el: string): MiniElement => {
      const found = el === "head" ? doc.head : el === "body" ? doc.body : doc.getElementById(el);
      if (found === null) throw new Error(`no element #${el}`);
      return found;
    };
    for (const [index, action] of program.actions.entries()) {
      try {
        const doc = resolve(action.f);
        switch (action.t) {
          case "get": {
            const node = element(doc, action.el);
            if (hooks !== undefined) {
              const answer = hooks.get(doc, node, action);
              if (answer !== undefined) out[action.id] = answer;
              break;
            }
            const value = (node as unknown as Record<string, unknown>)[action.prop];
            out[action.id] = {
              v: typeof value === "string" ? value : value === undefined || value === null ? null : String(value),
              a: node.getAttribute(action.attr),
              b: doc.baseURI,
              u: doc.URL,
              c: doc.characterSet,
            };
            break;
          }
          case "doc":
            if (hooks !== undefined) {
              const answer = hooks.doc(doc, action);
              if (answer !== undefined) out[action.id] = answer;
              break;
            }
            out[action.id] = { v: doc[action.what] };
            break;
          case "set": {
            if (hooks !== undefined) {
              const answer = hooks.set(doc, action);
              if (answer !== undefined) out[action.id] = answer;
              break;
            }
            const node = doc.createElement(action.tag);
            node.setAttribute("href", action.href);
            (node as unknown as Record<string, unknown>)[action.prop] = action.value;
            const value = (node as unknown as Record<string, unknown>)["href"];
            out[action.id] = { v: typeof value === "string" ? value : null, a: action.href, b: doc.baseURI, u: doc.URL, c: doc.characterSet };
            break;
          }
          case "setAttr":
            element(doc, action.el).setAttribute(action.name, action.value);
            break;
          case "removeAttr":
            element(doc, action.el).removeAttribute(action.name);
            break;
          case "remove":
            element(doc, action.el).remove();
            break;
          case "setProp":
            (element(doc, action.el) as unknown as Record<string, unknown>)[action.prop] = action.value;
            break;
          case "hold":
            held[`@${action.as}`] = doc;
            break;
          case "insert": {
            const target = element(doc, action.el);
            target.insertAdjacentHTML(action.where, action.html);
            const waits: Promise<void>[] = [];
            for (const id of action.load ?? []) {
              const frame = element(doc, id);
              waits.push(
                new Promise<void>((done) => {
                  frame.addEventListener("load", () => done(), { once: true });
                  window.setTimeout(() => done(), 20_000);
                }),
              );
            }
            await Promise.all(waits);
            break;
          }
        }
      } catch (error) {
        const err = String((error as { message?: unknown }).message ?? error);
        // A failed mutation is reported under a key no case has, so the run can fail on it.
        out["id" in action ? action.id : `${program.id}/!action-${index}`] = { v: null, err };
      }
    }
  }
  return out;
}
