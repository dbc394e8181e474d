// The errors a request can produce, each with its status and the message clients see.
// The messages are WorldTimeAPI's where it had one ("malformed ip", "unknown location"),
// so clients that match on them keep working.

import { ZonetimeError } from "../../core/errors.ts";

export class HttpError extends ZonetimeError {}

export const badRequest = (code: string, message: string) => new HttpError(code, 400, message);
export const notFound = (code: string, message: string) => new HttpError(code, 404, message);

export const MALFORMED_IP = () => badRequest("malformed_ip", "malformed ip");
export const MALFORMED_PATH = () => badRequest("malformed_path", "malformed path: invalid percent-encoding");
export const UNKNOWN_LOCATION = () => notFound("unknown_location", "unknown location");
export const NOT_FOUND = () => notFound("not_found", "not found");
export const METHOD_NOT_ALLOWED = () => new HttpError("method_not_allowed", 405, "method not allowed");
export const DUPLICATE_HOST = () => badRequest("duplicate_host", "bad request: more than one Host header");
