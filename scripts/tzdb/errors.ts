// One error type per compiler stage, so a failure says which stage refused the input
// and where in the source it was.

import { SourceError } from "../../server/core/errors.ts";

/** The text is not valid zic input (zic.8): a bad field, an unknown keyword. */
export class TzParseError extends SourceError {
  constructor(file: string, line: number, reason: string) {
    super("tz_parse", file, line, reason);
  }
}

/** The lines parse but do not fit together: an unknown rule name, a link to nothing. */
export class TzResolveError extends SourceError {
  constructor(file: string, line: number, reason: string) {
    super("tz_resolve", file, line, reason);
  }
}

/** The zone cannot be compiled to transitions (for example no abbreviation can be derived). */
export class TzCompileError extends SourceError {
  constructor(file: string, line: number, reason: string) {
    super("tz_compile", file, line, reason);
  }
}
