// A process reading the other end of a pipe the way a log shipper might fail to: one that
// never reads (its pipe fills up), or one that reads a line and exits (the writer gets
// EPIPE). `fd` is the write end, to hand to a child as its stdout.

import { closeSync, constants, mkdtempSync, openSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface PipeReader {
  /** The pipe's write end in this process: pass it as a child's stdout, then close it with `release`. */
  fd: number;
  release(): void;
  /** Ends the reading process: from then on a write to the pipe fails with EPIPE. */
  exit(): Promise<void>;
}

/** `command` reads the pipe on its stdin: `sleep 600` never reads, `head -n 1 >/dev/null` reads one line. */
export async function pipeReader(command: string): Promise<PipeReader> {
  const fifo = join(mkdtempSync(join(tmpdir(), "zonetime-pipe-")), "pipe");
  if (Bun.spawnSync(["mkfifo", fifo]).exitCode !== 0) throw new Error("mkfifo failed");
  // `<>` opens the FIFO without waiting for a writer.
  const reader = Bun.spawn(["sh", "-c", `exec ${command} <>"$0"`, fifo], { stdout: "ignore", stderr: "ignore" });
  // Open the write end only once the reader holds the other (a blocking open would wait forever).
  for (let tries = 0; ; tries++) {
    try {
      closeSync(openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK));
      break;
    } catch (error) {
      if (tries > 500) throw error;
      await Bun.sleep(10);
    }
  }
  const fd = openSync(fifo, constants.O_WRONLY);
  return {
    fd,
    release: () => closeSync(fd),
    exit: async () => {
      reader.kill("SIGKILL");
      await reader.exited;
    },
  };
}
