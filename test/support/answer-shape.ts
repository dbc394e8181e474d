// What a client sees of an answer, as one comparable object: the status, the headers that
import { expect } from "bun:test";
// name the answer (ETag, type, cache policy, length) and the body read whole. Tests of a
// remembered answer compare it with the one its route builds afresh.

export interface AnswerShape {
  status: number;
  etag: string | null;
  type: string | null;
  cacheControl: string | null;
  length: string | null;
  body: string;
}

export async function answerShape(res: Response): Promise<AnswerShape> {
  return {
    status: res.status,
    etag: res.headers.get("etag"),
    type: res.headers.get("content-type"),
    cacheControl: res.headers.get("cache-control"),
    length: res.headers.get("content-length"),
    body: res.body === null ? "" : await Bun.readableStreamToText(res.body),
  };
}

/**
 * At each instant (micros 0 and 999999) and for each path, three times over: the answer
 * from `host` (whose URL is seen again and again) against one from a host never seen
 * (its route runs in full), equal in every part; `more` checks the rest (HEAD, 304).
 */
export async function eachRepeatAgainstFresh(options: {
  instants: readonly number[];
  paths: readonly string[];
  setNow: (instant: { seconds: number; micros: number }) => void;
  answer: (host: string, path: string, init?: RequestInit) => Promise<AnswerShape>;
  host: string;
  more: (path: string, seen: AnswerShape, reference: AnswerShape) => Promise<void>;
}): Promise<void> {
  let fresh = 0;
  for (const seconds of options.instants) {
    for (const micros of [0, 999_999]) {
      options.setNow({ seconds, micros });
      for (const path of options.paths) {
        for (let repeat = 0; repeat < 3; repeat++) {
          const seen = await options.answer(options.host, path);
          const reference = await options.answer(`ref${fresh++}.example`, path);
          expect({ path, seconds, ...seen }).toEqual({ path, seconds, ...reference });
          expect(seen.status).toBe(200);
          await options.more(path, seen, reference);
        }
      }
    }
  }
}
