// Your clock against zonetime's, by NTP's on-wire formula over a few round trips to /sync.
// offset: the milliseconds to add to your clock to read ours (negative: yours is ahead);
// bound: the true offset lies within offset ± bound (half the least delay, plus 1 ms for
// Date.now()'s resolution). `base`: the service's address; `now`: your clock.
export async function clockOffset(base, rounds = 8, now = () => Date.now()) {
  const samples = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = now();
    const response = await fetch(`${base}/sync?t0=${t0.toFixed(3)}`);
    if (!response.ok) throw new Error(`/sync answered ${response.status}`);
    const { t1, t2 } = await response.json();
    const t3 = now();
    samples.push({ offset: (t1 - t0 + (t2 - t3)) / 2, delay: t3 - t0 - (t2 - t1) });
  }
  // The round trip the network delayed least bounds the offset most tightly.
  const best = samples.reduce((a, b) => (b.delay < a.delay ? b : a));
  return { offset: best.offset, bound: best.delay / 2 + 1, samples };
}
