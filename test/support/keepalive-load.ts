// A keep-alive HTTP/1.1 load client over raw sockets that tells apart what wrk lumps
// together as "read errors": a response cut short, a request lost on a connection that
// had already been answered (the server closed it while the request was on its way), and
// a fresh connection reset before the application ever read it (the kernel's accept
// queue, dropped when a listener closes).

import { connect, type Socket } from "node:net";

export interface LoadReport {
  responses: number;
  non2xx: number;
  truncated: number;
  lostOnReusedConnection: number;
  resetBeforeAccepted: number;
  refused: number;
  /** Connections this client opened (to tell how many it opened during a drain). */
  opened: number;
}

export function newLoadReport(): LoadReport {
  return { responses: 0, non2xx: 0, truncated: 0, lostOnReusedConnection: 0, resetBeforeAccepted: 0, refused: 0, opened: 0 };
}

/** Load on `port`; `report` (optional) is filled as it goes, so a caller can read it midway. */
export function keepAliveLoad(port: number, path: string, connections: number, shouldStop: () => boolean, live?: LoadReport): Promise<LoadReport> {
  const report = live ?? newLoadReport();
  const request = `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`;

  const loop = () => new Promise<void>((done) => {
    let socket: Socket;
    let buffer = "";
    let answeredOnThisConnection = 0;
    let finished = false;
    const open = () => {
      if (shouldStop()) return finish();
      buffer = "";
      answeredOnThisConnection = 0;
      let connected = false;
      socket = connect(port, "127.0.0.1");
      report.opened++;
      socket.setNoDelay(true);
      socket.on("connect", () => {
        connected = true;
        socket.write(request);
      });
      socket.on("data", (chunk: Buffer) => {
        buffer += chunk.toString("latin1");
        for (;;) {
          const end = buffer.indexOf("\r\n\r\n");
          if (end < 0) return;
          const head = buffer.slice(0, end);
          const length = Number(/\r\ncontent-length: (\d+)/i.exec(head)?.[1] ?? 0);
          if (buffer.length < end + 4 + length) return;
          buffer = buffer.slice(end + 4 + length);
          report.responses++;
          answeredOnThisConnection++;
          if (!/^HTTP\/1\.1 2\d\d/.test(head)) report.non2xx++;
          if (/\r\nconnection: close/i.test(head)) {
            socket.removeAllListeners();
            socket.destroy();
            return open();
          }
          if (shouldStop()) {
            socket.destroy();
            return finish();
          }
          socket.write(request);
        }
      });
      const failed = (error?: Error) => {
        socket.removeAllListeners();
        socket.destroy();
        if (!connected && (error as NodeJS.ErrnoException | undefined)?.code === "ECONNREFUSED") {
          report.refused++;
          return finish(); // the server is gone: this loop is over
        }
        if (buffer.length > 0) report.truncated++;
        else if (answeredOnThisConnection > 0) report.lostOnReusedConnection++;
        else report.resetBeforeAccepted++;
        setTimeout(open, 1);
      };
      socket.on("error", failed);
      socket.on("end", () => failed());
    };
    const finish = () => {
      if (!finished) {
        finished = true;
        done();
      }
    };
    open();
  });

  return Promise.all(Array.from({ length: connections }, loop)).then(() => report);
}
