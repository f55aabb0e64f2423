import { memo } from 'react';

/**
 * Text shown as written (a user's message, a reply without markdown, a block too large to
 * format). A long text is laid out in pieces that skip layout while off screen, and a streaming
 * one changes only its last piece: as one text node, every chunk of a 1 MB reply made the browser
 * lay out the whole megabyte again (long tasks of 300 ms and more).
 */
export function PlainText({ text }: { text: string }) {
  if (text.length <= pieceChars) return <div className="whitespace-pre-wrap">{text}</div>;
  return (
    <div className="whitespace-pre-wrap">
      {textPieces(text).map((piece, index) => (
        <Piece key={index} text={piece} />
      ))}
    </div>
  );
}

const pieceChars = 8192;
/** The line height of message text (leading-relaxed), for a piece's size before it is laid out. */
const lineHeightEm = 1.625;
const charsPerLine = 80;

const Piece = memo(function Piece({ text }: { text: string }) {
  let lines = Math.ceil(text.length / charsPerLine);
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines++;
  return (
    <div
      className="[content-visibility:auto]"
      style={{ containIntrinsicBlockSize: `auto ${(lines * lineHeightEm).toFixed(1)}em` }}
    >
      {text}
    </div>
  );
});

/**
 * Pieces of at most `pieceChars`, each ending after a line break where the piece holds one (a
 * piece ends its own line), never inside a character of two UTF-16 units.
 */
export function textPieces(text: string): string[] {
  const pieces: string[] = [];
  let start = 0;
  while (text.length - start > pieceChars) {
    // Searched within the piece: a text without line breaks must not be searched back to its start.
    let end = start + text.slice(start, start + pieceChars).lastIndexOf('\n') + 1;
    if (end === start) {
      end = start + pieceChars;
      const before = text.charCodeAt(end - 1);
      if (before >= 0xd800 && before <= 0xdbff) end--;
    }
    pieces.push(text.slice(start, end));
    start = end;
  }
  pieces.push(text.slice(start));
  return pieces;
}
