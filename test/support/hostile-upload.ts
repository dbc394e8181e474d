// A hostile upload (issue 30): a chunked POST body of up to `total` bytes, written as fast
// as the socket takes it, until the server answers or closes. What the client had sent when
// the answer came says whether the server read on after refusing.

import { connect } from "node:net";
import { MAX_BODY_BYTES } from "../../server/http/pipeline/request-body.ts";

export interface Upload {
  status: number;
  /** Bytes of body the client had written when the answer (or the close) came. */
  sent: number;
  /** Milliseconds from the body passing the bound to the first byte of the answer. */
  answeredAfterBoundMs: number | null;
  /** The answer's body as read (whole only with `wholeAnswer`). */
  body: string;
}

/** A chunked upload of up to `total` bytes in 64 KiB chunks, written as fast as the socket takes them, until the server answers (its head, or with `wholeAnswer` its whole Content-Length) or closes. */
export function chunkedUpload(port: number, path: string, total: number, wholeAnswer = false): Promise<Upload> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    const chunk = Buffer.concat([Buffer.from("10000\r\n"), Buffer.alloc(0x10000, 0x61), Buffer.from("\r\n")]);
    let sent = 0;
    let passedBound: number | null = null;
    let answer = "";
    let answeredAt: number | null = null;
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      socket.destroy();
      const headEnd = answer.indexOf("\r\n\r\n");
      resolve({
        status: Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0), sent,
        answeredAfterBoundMs: passedBound === null ? null : (answeredAt ?? performance.now()) - passedBound,
        body: headEnd < 0 ? "" : answer.slice(headEnd + 4),
      });
    };
    const pump = () => {
      while (!done && sent < total) {
        sent += 0x10000;
        if (passedBound === null && sent > MAX_BODY_BYTES) passedBound = performance.now();
        if (!socket.write(chunk)) return void socket.once("drain", pump);
      }
    };
    socket.on("connect", () => {
      socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`);
      pump();
    });
    socket.on("data", (d: Buffer) => {
      answeredAt ??= performance.now();
      answer += d.toString("latin1");
      const headEnd = answer.indexOf("\r\n\r\n");
      if (headEnd < 0) return;
      const length = Number(/\r\ncontent-length: *(\d+)/i.exec(answer.slice(0, headEnd))?.[1] ?? 0);
      if (!wholeAnswer || answer.length - headEnd - 4 >= length) finish();
    });
    socket.on("error", finish);
    socket.on("close", finish);
  });
}

