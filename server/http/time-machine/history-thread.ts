// The history thread of a serving process: it makes the time machine's answers that walk
// release tables (history-answers.ts), so that none of that work, nor the garbage it leaves,
// runs on the thread that serves requests. A far pair of releases takes 25-250 ms, the
// releases feed 300-1,700 ms on a fresh worker: made in 2 ms turns on the serving thread,
// their turns and the collections between them still held it 5-10 ms at a time (issue 30).
//
// It copies the default and history tables it reads (about 5 MB) itself, keeps the pairs
// of releases it has worked out (release_changes), and makes one answer at a time, in the
// order asked: one build's memory at most, and a short answer waits at most for the one
// under way. It runs 10 nice steps below the serving thread. history-builds.ts is the serving thread's side.

import { ZoneTable } from "../../tz/zone-table.ts";
import { TzdbHistory } from "../../tz/tzdb-history.ts";
import { copyOf } from "../../core/mapped-memory.ts";
import { lowerThisThread } from "../../core/thread-priority.ts";
import { Memo } from "../caching/memo.ts";
import { historyAnswer } from "./history-answers.ts";
import { RELEASE_CHANGES_BOUNDS, releaseChangesBytes, type ReleaseChanges } from "./changes-answer.ts";
import type { HistoryReply, HistoryRequest, HistoryStart } from "./history-builds.ts";

declare const self: Worker;

/** Its builds wait for the CPU the serving thread leaves: on a busy core, about a tenth of it. */
const NICE_STEPS = 10;

lowerThisThread(NICE_STEPS);
const start = await new Promise<HistoryStart>((resolve) => (self.onmessage = (e: MessageEvent<HistoryStart>) => resolve(e.data)));
const zones = ZoneTable.fromBuffer(copyOf(start.zones.address, start.zones.length), start.zones.file);
const history = TzdbHistory.fromBuffer(copyOf(start.history.address, start.history.length), start.history.file, zones);
postMessage("copied"); // the serving thread may let its tables go (a reload)
const memo = new Memo<ReleaseChanges>("release_changes", RELEASE_CHANGES_BOUNDS, releaseChangesBytes);

self.onmessage = (e: MessageEvent<HistoryRequest>) => {
  const { id, job } = e.data;
  const before = memo.stats();
  let reply: HistoryReply;
  try {
    const body = historyAnswer(history, memo, job);
    reply = { id, body, memo: memo.stats() };
  } catch (error) {
    reply = { id, error: error instanceof Error ? `${error.name}: ${error.message}` : String(error), memo: memo.stats() };
  }
  const after = reply.memo;
  // The pairs kept, whenever they change: what the serving thread prices a pair by.
  if (after.entries !== before.entries || after.evictions !== before.evictions) reply.pairs = [...memo.keys()];
  postMessage(reply);
};
