// Opens a MaxMind DB file with a clear message when it is missing or not an mmdb.

import { Reader } from "mmdb-lib";
import Decoder from "mmdb-lib/lib/decoder";
import { ZonetimeError } from "../../server/core/errors.ts";
import type { MmdbFile } from "./mmdb-tree.ts";

export class IpSourceError extends ZonetimeError {
  constructor(reason: string) {
    super("ip_source", 500, reason);
  }
}

export async function openMmdb(path: string): Promise<MmdbFile> {
  const file = Bun.file(path);
  if (!(await file.exists())) throw new IpSourceError(`IP source ${path} does not exist`);
  const db = Buffer.from(await file.arrayBuffer());
  let metadata: Reader<never>["metadata"];
  try {
    metadata = new Reader(db).metadata;
  } catch (error) {
    throw new IpSourceError(`IP source ${path} is not a readable MaxMind DB file: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (metadata.recordSize !== 24 && metadata.recordSize !== 28 && metadata.recordSize !== 32) {
    throw new IpSourceError(`IP source ${path}: unsupported record size ${metadata.recordSize}`);
  }
  if (metadata.ipVersion !== 4 && metadata.ipVersion !== 6) {
    throw new IpSourceError(`IP source ${path}: unsupported IP version ${metadata.ipVersion}`);
  }
  return {
    path,
    db,
    nodeCount: metadata.nodeCount,
    recordSize: metadata.recordSize,
    nodeByteSize: metadata.nodeByteSize,
    ipVersion: metadata.ipVersion,
    searchTreeSize: metadata.searchTreeSize,
    buildEpoch: metadata.buildEpoch,
    databaseType: metadata.databaseType,
    decoder: new Decoder(db, metadata.searchTreeSize + 16),
  };
}
