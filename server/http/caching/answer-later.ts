// A cacheable answer whose body is made later, for the rows marked `later` (in turns, or on
// the history thread): kept, revalidated and charged like every cacheable answer
// (cacheable-answer.ts), and built once at a time per key: a request that finds its key's
// build under way waits for that one (the releases feed is 300-1,700 ms of work on a fresh
// worker; a hundred readers polling at once must not make it a hundred builds, nor hold a
// hundred copies); and at most a few builds are under way at once (core/in-turns.ts,
// whenFewBuilding).

import { cacheableAnswer, type Holds } from "./cacheable-answer.ts";
import type { RouteRequest } from "../contract.ts";
import { whenFewBuilding } from "../../core/in-turns.ts";

const alreadyKept = (): string => {
  throw new Error("a kept or revalidated answer is never built");
};

/** `build`: the body as text, or as a Blob of its parts (a body of megabytes, encoded part by part in turns). */
export function cacheableAnswerLater(request: RouteRequest, key: string, maxAge: number, build: () => Promise<string | Blob>, type?: string, holds?: Holds): Response | Promise<Response> {
  const { answers, responses } = request.data;
  // Kept (the common case: If-None-Match is read once, by cacheableAnswer), or revalidated by the key's ETag.
  if (answers.has(key)) return cacheableAnswer(request, key, maxAge, alreadyKept, type, holds);
  const ifNoneMatch = request.ifNoneMatch();
  if (ifNoneMatch !== null && responses.etagMatches(ifNoneMatch, answers.etagOf(key))) return cacheableAnswer(request, key, maxAge, alreadyKept, type, holds);
  let underWay = answers.building.get(key);
  if (underWay === undefined) {
    underWay = whenFewBuilding(build).finally(() => answers.building.delete(key));
    answers.building.set(key, underWay);
  }
  return underWay.then((body) => cacheableAnswer(request, key, maxAge, () => body, type, holds));
}
