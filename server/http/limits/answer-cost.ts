// What an answer costs a client's rate limit budget (README, "What an answer costs").
// Every request costs 1 token; an answer's body costs 1 more per full BYTES_PER_TOKEN,
// since building and sending it is what grows with it (a full-range transitions window of
// 1000 entries, about 300 KB, is about 100 time objects' work). A revalidation answered
// 304 costs 1. A route may charge more for what it knows costs more (a many-zone /clock
// would charge per zone) by setting RouteRequest.cost above this.

/** Body bytes per extra token. */
export const BYTES_PER_TOKEN = 16 * 1024;

/** The tokens an answer whose body has `bytes` costs. */
export function costOfBody(bytes: number): number {
  return 1 + Math.floor(bytes / BYTES_PER_TOKEN);
}
