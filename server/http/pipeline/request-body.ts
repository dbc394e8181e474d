// A POST body, read as it arrives and refused the moment it passes its bound.
//
// `req.text()` buffers the whole body before anyone can look at its size: a chunked upload
// has no Content-Length to refuse up front, so Bun held up to its own 128 MB per upload
// (eight concurrent 120 MB uploads took two workers from 150 to 720 MB, issue 30). Here
// each chunk is counted as Bun hands it over; past the bound, or past the deadline (a
// body sent a byte every 9 s never trips Bun's 10 s idle timeout), the stream is cancelled
// and the answer says `Connection: close`, so nothing more is read or held.

import { HttpError } from "./http-errors.ts";

/** timeapi.io's bodies are a few short strings; 16 KiB is generous. */
export const MAX_BODY_BYTES = 16 * 1024;
/** A body that has not finished arriving this long after its request reached us is cut. */
export const BODY_DEADLINE_MS = 5_000;

/** nginx's convention for a client that went away before its answer: it is not our error. */
export const CLIENT_CLOSED_STATUS = 499;

export const BODY_TOO_LARGE = () => new HttpError("body_too_large", 413, `request body too large: at most ${MAX_BODY_BYTES} bytes`);
export const BODY_TOO_SLOW = () => new HttpError("body_timeout", 408, `request body not received within ${BODY_DEADLINE_MS / 1000} seconds`);
export const BODY_NOT_UTF8 = () => new HttpError("bad_body", 400, "request body is not UTF-8");
/** The client closed the connection mid-body; the answer is never seen, only counted and logged. */
export const CLIENT_CLOSED = () => new HttpError("client_closed", CLIENT_CLOSED_STATUS, "client closed request");

/** The statuses after which the connection is closed: the rest of the body is never read. */
export function endsConnection(error: HttpError): boolean {
  return error.status === 413 || error.status === 408;
}

/**
 * The body as UTF-8 text, or an HttpError: 413 past `limit` bytes (declared or sent), 408
 * past `deadlineMs`, 499 when the client went away, 400 when the bytes are not UTF-8.
 */
export async function readBody(req: Request, limit = MAX_BODY_BYTES, deadlineMs = BODY_DEADLINE_MS): Promise<string> {
  const declared = req.headers.get("content-length");
  if (declared !== null && !(Number(declared) <= limit)) throw BODY_TOO_LARGE();
  const stream = req.body;
  if (stream === null) return "";
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let received = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(BODY_TOO_SLOW()), deadlineMs);
  });
  try {
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await Promise.race([reader.read(), deadline]);
      } catch (error) {
        // Bun rejects the read when the peer closes mid-body (or its own size limit trips).
        throw error instanceof HttpError ? error : CLIENT_CLOSED();
      }
      if (chunk.done) break;
      received += chunk.value.byteLength;
      if (received > limit) throw BODY_TOO_LARGE();
      chunks.push(chunk.value);
    }
  } catch (error) {
    reader.cancel().catch(() => {});
    throw error;
  } finally {
    clearTimeout(timer);
  }
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw BODY_NOT_UTF8();
  }
}
