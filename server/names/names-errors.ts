// Input the names layer refuses (a bad `lang`, `q` or `country`): a 400 with the message
// the client sees, through the one error shape http/ gives every ZonetimeError.

import { ZonetimeError } from "../core/errors.ts";

export class NamesInputError extends ZonetimeError {
  constructor(code: string, message: string) {
    super(code, 400, message);
  }
}
