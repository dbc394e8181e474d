// Preloaded by `bun test` (bunfig.toml): every temporary directory a test makes, and every
// one its child processes make, goes under one scratch root that is removed when the run
// ends. Tests create their copies of the data (about 70 MB each) with mkdtemp and many do
// not remove them; before this, one full run left about 2 GB in /tmp, and a CI machine
// can have far less free disk than that.
import { afterAll } from "bun:test";
import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const root = mkdtempSync(join(tmpdir(), "zonetime-test-run-"));
// Like /tmp itself: tests drop privileges (the non-root suites run as nobody) and still
// make and read their own directories here.
chmodSync(root, 0o1777);
// os.tmpdir() reads TMPDIR on every call, and spawned servers and tools inherit it.
process.env.TMPDIR = root;

// A preloaded afterAll runs once after every file (bun test does not emit "exit" to
// listeners in the test process).
// Its own timeout: on a loaded machine removing a built site and data (thousands of files)
// took over bun's default 5 s, which failed a run whose tests had all passed.
afterAll(() => {
  rmSync(root, { recursive: true, force: true });
}, 120_000);
