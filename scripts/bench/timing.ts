// Median nanoseconds per call over repeated batches (medians resist a noisy shared machine).

export function median(xs: number[]): number {
  return [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
}

export function nsPerOp(batches: number, perBatch: number, body: (i: number) => number): number {
  const samples: number[] = [];
  let sink = 0;
  for (let b = 0; b < batches; b++) {
    const start = Bun.nanoseconds();
    for (let i = 0; i < perBatch; i++) sink += body(i);
    samples.push((Bun.nanoseconds() - start) / perBatch);
  }
  if (sink === -1) console.log("unreachable"); // keeps the loop's work observable
  return median(samples);
}
