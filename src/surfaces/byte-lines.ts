const NEWLINE = 0x0a;

/**
 * A connection's newline-delimited requests, split as bytes. Decoding chunk by chunk
 * (`setEncoding('utf8')`) would turn malformed bytes, and a character cut between two
 * chunks, into U+FFFD before the parse could refuse them; splitting first is safe because
 * UTF-8 never uses 0x0A inside a character.
 */
export class ByteLines {
  private held: Buffer[] = [];
  private heldBytes = 0;

  /** The lines `chunk` completes, without their newline; the rest is held for the next chunk. */
  push(chunk: Buffer): Buffer[] {
    const lines: Buffer[] = [];
    let start = 0;
    let newline: number;
    while ((newline = chunk.indexOf(NEWLINE, start)) >= 0) {
      const piece = chunk.subarray(start, newline);
      if (this.held.length === 0) {
        lines.push(piece);
      } else {
        this.held.push(piece);
        lines.push(Buffer.concat(this.held));
        this.clear();
      }
      start = newline + 1;
    }
    if (start < chunk.length) {
      this.held.push(chunk.subarray(start));
      this.heldBytes += chunk.length - start;
    }
    return lines;
  }

  /** Bytes of the line not yet ended. */
  get pending(): number {
    return this.heldBytes;
  }

  clear(): void {
    this.held = [];
    this.heldBytes = 0;
  }
}

/** A line of spaces, tabs and carriage returns only: skipped, as between requests. */
export function isBlankLine(line: Buffer): boolean {
  for (const byte of line) if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d) return false;
  return true;
}
