// Writes small MaxMind DB files (MaxMind DB format 2.0: search tree with 24-bit records,
// data section, metadata) so tests can build from a source they control, shaped like a
// GeoIP2/GeoLite2 City database: one IPv6 tree holding IPv4 under ::/96, with the
// ::ffff:0:0/96, 2001::/32 and 2002::/16 subtrees aliased to the IPv4 data.

interface TrieNode {
  children: [TrieNode | Leaf | null, TrieNode | Leaf | null];
  id?: number;
}
type Leaf = { data: number };

function encodeData(value: unknown): number[] {
  const ctrl = (type: number, size: number): number[] => {
    const head = type <= 7 ? [(type << 5) | Math.min(size, 29)] : [Math.min(size, 29), type - 7];
    const sizeBytes = size < 29 ? [] : [size - 29];
    return type <= 7 ? [...head, ...sizeBytes] : [head[0]!, ...sizeBytes, head[1]!];
  };
  if (typeof value === "string") {
    const bytes = [...new TextEncoder().encode(value)];
    return [...ctrl(2, bytes.length), ...bytes];
  }
  if (typeof value === "number" && !Number.isInteger(value)) {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, value);
    return [...ctrl(3, 8), ...b];
  }
  if (typeof value === "number") {
    const bytes: number[] = [];
    for (let v = value; v > 0; v = Math.floor(v / 256)) bytes.unshift(v % 256);
    return [...ctrl(value < 65536 ? 5 : value < 2 ** 32 ? 6 : 9, bytes.length), ...bytes];
  }
  if (Array.isArray(value)) return [...ctrl(11, value.length), ...value.flatMap(encodeData)];
  const entries = Object.entries(value as Record<string, unknown>);
  return [...ctrl(7, entries.length), ...entries.flatMap(([k, v]) => [...encodeData(k), ...encodeData(v)])];
}

function bitsOf(address: string): number[] {
  const groups: number[] = [];
  const [head, tail] = address.split("::") as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(":").map((g) => parseInt(g, 16)) : []);
  const h = part(head);
  const t = part(tail);
  groups.push(...h, ...new Array(8 - h.length - t.length).fill(0), ...t);
  return groups.flatMap((g) => Array.from({ length: 16 }, (_, i) => (g >> (15 - i)) & 1));
}

export class MmdbWriter {
  private root: TrieNode = { children: [null, null] };
  private data: number[] = [];

  /** Stores `record` for an IPv6 network `address/prefix` (IPv4 a.b.c.d/n as ::a.b.c.d/96+n). */
  insert(address: string, prefix: number, record: Record<string, unknown>): void {
    const leaf: Leaf = { data: this.data.length };
    this.data.push(...encodeData(record));
    this.place(bitsOf(address), prefix, leaf);
  }

  insertIpv4(address: string, prefix: number, record: Record<string, unknown>): void {
    const [a, b, c, d] = address.split(".").map(Number) as [number, number, number, number];
    this.insert(`::${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`, 96 + prefix, record);
  }

  /** Points `address/prefix` at the node for ::/96, as MaxMind's combined databases do. */
  aliasToIpv4(address: string, prefix: number): void {
    let node = this.root;
    for (let i = 0; i < 96; i++) {
      node.children[0] ??= { children: [null, null] };
      node = node.children[0] as TrieNode;
    }
    this.place(bitsOf(address), prefix, node);
  }

  private place(bits: number[], prefix: number, target: TrieNode | Leaf): void {
    let node = this.root;
    for (let i = 0; i < prefix - 1; i++) {
      const bit = bits[i]!;
      node.children[bit] ??= { children: [null, null] };
      node = node.children[bit] as TrieNode;
    }
    node.children[bits[prefix - 1]!] = target;
  }

  toBytes(databaseType = "GeoLite2-City"): Uint8Array {
    const nodes: TrieNode[] = [];
    const queue = [this.root];
    while (queue.length > 0) {
      const n = queue.shift()!;
      if (n.id !== undefined) continue;
      n.id = nodes.length;
      nodes.push(n);
      for (const c of n.children) if (c && "children" in c && c.id === undefined) queue.push(c);
    }
    const nodeCount = nodes.length;
    const record = (c: TrieNode | Leaf | null) => (c === null ? nodeCount : "data" in c ? nodeCount + 16 + c.data : c.id!);
    const tree: number[] = [];
    for (const n of nodes) {
      for (const c of n.children) {
        const v = record(c);
        tree.push((v >> 16) & 255, (v >> 8) & 255, v & 255);
      }
    }
    const metadata = encodeData({
      node_count: nodeCount, record_size: 24, ip_version: 6, database_type: databaseType, languages: ["en"],
      binary_format_major_version: 2, binary_format_minor_version: 0, build_epoch: 1_790_000_000, description: { en: "test" },
    });
    const marker = [0xab, 0xcd, 0xef, ...new TextEncoder().encode("MaxMind.com")];
    return Uint8Array.from([...tree, ...new Array(16).fill(0), ...this.data, ...marker, ...metadata]);
  }
}
