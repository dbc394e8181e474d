// What a client sees of an answer, as one comparable object: the status, the headers that
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
