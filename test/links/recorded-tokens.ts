/**
 * What parse5's tree construction receives from a tokenizer, recorded token
 * by token: shared by the tokenizer tests (html-tokenizer.test.ts, and
 * html-tokenizer-chunks.test.ts for the tokenizer read in pieces).
 *
 * @module
 */

import { Parser, Token, type DefaultTreeAdapterMap } from "parse5";

export type DocumentParser = Parser<DefaultTreeAdapterMap>;
export type Snapshot = readonly unknown[];

/** The parser's token handlers, each with the one token type it is meant for. */
const handlers = {
  onStartTag: Token.TokenType.START_TAG,
  onEndTag: Token.TokenType.END_TAG,
  onCharacter: Token.TokenType.CHARACTER,
  onWhitespaceCharacter: Token.TokenType.WHITESPACE_CHARACTER,
  onNullCharacter: Token.TokenType.NULL_CHARACTER,
  onComment: Token.TokenType.COMMENT,
  onDoctype: Token.TokenType.DOCTYPE,
  onEof: Token.TokenType.EOF,
} as const;
type HandlerName = keyof typeof handlers;
type Handler = (this: DocumentParser, token: Token.Token) => void;

/** The token as it is on arrival (the parser later renames foreign attributes, strips a leading LF, ...). */
function snapshot(handler: HandlerName, token: Token.Token): Snapshot {
  let type: string = Token.TokenType[token.type] ?? String(token.type);
  if (handlers[handler] !== token.type) type += ` (handed to ${handler})`;
  switch (token.type) {
    case Token.TokenType.START_TAG:
    case Token.TokenType.END_TAG:
      return [type, token.tagName, token.selfClosing, token.attrs.map((a) => [a.name, a.value])];
    case Token.TokenType.CHARACTER:
    case Token.TokenType.WHITESPACE_CHARACTER:
    case Token.TokenType.NULL_CHARACTER:
      return [type, token.chars];
    case Token.TokenType.COMMENT:
      return [type, token.data];
    case Token.TokenType.DOCTYPE:
      return [type, token.name, token.publicId, token.systemId, token.forceQuirks];
    default:
      return [type];
  }
}

/**
 * Wraps the parser's token handlers on this instance so that each token the
 * tokenizer hands it is recorded. Only outermost calls count: the parser calls
 * its own handlers again when it reprocesses a token in another insertion mode.
 */
export function recordTokens(parser: DocumentParser): Snapshot[] {
  const tokens: Snapshot[] = [];
  let depth = 0;
  const instance = parser as unknown as Record<HandlerName, Handler>;
  const prototype = Parser.prototype as unknown as Record<HandlerName, Handler>;
  for (const name of Object.keys(handlers) as HandlerName[]) {
    const method = prototype[name];
    instance[name] = function (token) {
      if (depth === 0) tokens.push(snapshot(name, token));
      depth++;
      try {
        method.call(this, token);
      } finally {
        depth--;
      }
    };
  }
  return tokens;
}

