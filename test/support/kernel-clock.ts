// The kernel's clock state read independently of server/ops/clock-sync.ts: python3 calls
// adjtimex(2) through ctypes with struct timex declared field by field, so the C compiler's
// layout rules, not our hand-written byte offsets, decide where each field is.

export interface KernelClock {
  /** adjtimex's return value (TIME_OK = 0 ... TIME_ERROR = 5). */
  state: number;
  status: number;
  maxerror: number;
  esterror: number;
}

const SCRIPT = `
import ctypes, json
class Timeval(ctypes.Structure):
    _fields_ = [("tv_sec", ctypes.c_long), ("tv_usec", ctypes.c_long)]
class Timex(ctypes.Structure):  # <sys/timex.h>, Linux
    _fields_ = [("modes", ctypes.c_uint), ("offset", ctypes.c_long), ("freq", ctypes.c_long),
                ("maxerror", ctypes.c_long), ("esterror", ctypes.c_long), ("status", ctypes.c_int),
                ("constant", ctypes.c_long), ("precision", ctypes.c_long), ("tolerance", ctypes.c_long),
                ("time", Timeval), ("tick", ctypes.c_long), ("ppsfreq", ctypes.c_long), ("jitter", ctypes.c_long),
                ("shift", ctypes.c_int), ("stabil", ctypes.c_long), ("jitcnt", ctypes.c_long), ("calcnt", ctypes.c_long),
                ("errcnt", ctypes.c_long), ("stbcnt", ctypes.c_long), ("tai", ctypes.c_int), ("padding", ctypes.c_int * 11)]
timex = Timex()  # modes = 0: read only
state = ctypes.CDLL("libc.so.6").adjtimex(ctypes.byref(timex))
print(json.dumps({"state": state, "status": timex.status, "maxerror": timex.maxerror, "esterror": timex.esterror}))
`;

export async function readKernelClock(): Promise<KernelClock> {
  const child = Bun.spawn(["python3", "-c", SCRIPT], { stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
  if (code !== 0) throw new Error(`python3 adjtimex failed: ${stderr}`);
  return JSON.parse(stdout) as KernelClock;
}
