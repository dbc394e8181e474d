// One error hierarchy for the whole project. Every error carries a stable `code` (for logs
// and tests) and the HTTP `status` it maps to; server/http turns any of them into the one
// JSON error body. Build-time errors about a source file carry the file and line.

export class ZonetimeError extends Error {
  readonly code: string;
  readonly status: number;

  constructor(code: string, status: number, message: string) {
    super(message);
    this.name = new.target.name;
    this.code = code;
    this.status = status;
  }
}

/** A problem at a place in an input file; the message starts with `file:line:`. */
export class SourceError extends ZonetimeError {
  readonly file: string;
  readonly line: number;

  constructor(code: string, file: string, line: number, reason: string) {
    super(code, 500, `${file}:${line}: ${reason}`);
    this.file = file;
    this.line = line;
  }
}

/** A generated table file that cannot be used: wrong magic, unknown major, bad lengths. */
export class TableFormatError extends ZonetimeError {
  readonly file: string;

  constructor(file: string, reason: string) {
    super("table_format", 500, `${file}: ${reason}`);
    this.file = file;
  }
}
