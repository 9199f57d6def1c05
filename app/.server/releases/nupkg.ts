import { inflateRawSync } from "node:zlib";
import { XMLParser } from "fast-xml-parser";

/**
 * The manifest of a Velopack package (.nupkg, a zip): which app, version, OS and arch it is, read
 * from its `.nuspec` without reading the package: the zip's directory at its end, then that one
 * entry, each by a byte range (on disk or in S3 alike), so a 500 MB package costs a few KB of
 * memory. Zip64 directories (packages over 4 GB or 65,535 files) are read too.
 */
export interface NupkgManifest {
  id: string;
  version: string;
  /** Velopack's OS name: `win`, `osx` or `linux`. */
  os: string;
  /** `x64`, `arm64`, `x86`, or empty when the package does not say. */
  machineArchitecture: string;
  channel: string;
}

/** Bytes `start`..`end` (both inclusive) of the package. */
export type RangeReader = (start: number, end: number) => Promise<Buffer>;

export class NupkgError extends Error {
  override name = "NupkgError";
}

const EOCD = 0x06054b50;
const ZIP64_LOCATOR = 0x07064b50;
const ZIP64_EOCD = 0x06064b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;
const MAX_DIRECTORY = 32 * 1024 * 1024;
const MAX_MANIFEST = 256 * 1024;
const U32 = 0xffffffff;

function u64(buffer: Buffer, offset: number): number {
  const value = buffer.readBigUInt64LE(offset);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new NupkgError("the zip is corrupt");
  return Number(value);
}

async function directoryOf(read: RangeReader, size: number) {
  if (size < 22) throw new NupkgError("not a zip file");
  const tailStart = Math.max(0, size - 22 - 65_535);
  const tail = await read(tailStart, size - 1);
  let at = -1;
  for (let index = tail.length - 22; index >= 0; index -= 1)
    if (tail.readUInt32LE(index) === EOCD) {
      at = index;
      break;
    }
  if (at < 0) throw new NupkgError("not a zip file (no end of central directory)");
  let entries = tail.readUInt16LE(at + 10);
  let length = tail.readUInt32LE(at + 12);
  let offset = tail.readUInt32LE(at + 16);
  if (entries === 0xffff || length === U32 || offset === U32) {
    const locator = at - 20;
    if (locator < 0 || tail.readUInt32LE(locator) !== ZIP64_LOCATOR)
      throw new NupkgError("the zip is corrupt (no zip64 locator)");
    const record = u64(tail, locator + 8);
    const zip64 = await read(record, record + 55);
    if (zip64.readUInt32LE(0) !== ZIP64_EOCD) throw new NupkgError("the zip is corrupt");
    entries = u64(zip64, 32);
    length = u64(zip64, 40);
    offset = u64(zip64, 48);
  }
  if (length > MAX_DIRECTORY) throw new NupkgError("the zip's directory is too large");
  if (offset + length > size) throw new NupkgError("the zip is corrupt");
  return {
    entries,
    directory: length === 0 ? Buffer.alloc(0) : await read(offset, offset + length - 1),
  };
}

interface Entry {
  name: string;
  method: number;
  compressed: number;
  uncompressed: number;
  local: number;
}

function* entriesOf(directory: Buffer, count: number): Generator<Entry> {
  let at = 0;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > directory.length || directory.readUInt32LE(at) !== CENTRAL)
      throw new NupkgError("the zip's directory is corrupt");
    const nameLength = directory.readUInt16LE(at + 28);
    const extraLength = directory.readUInt16LE(at + 30);
    const commentLength = directory.readUInt16LE(at + 32);
    const entry: Entry = {
      name: directory.toString("utf8", at + 46, at + 46 + nameLength),
      method: directory.readUInt16LE(at + 10),
      compressed: directory.readUInt32LE(at + 20),
      uncompressed: directory.readUInt32LE(at + 24),
      local: directory.readUInt32LE(at + 42),
    };
    // Zip64: the sizes and offset that overflowed are in extra field 0x0001, in this order.
    let extra = at + 46 + nameLength;
    const extraEnd = extra + extraLength;
    while (extra + 4 <= extraEnd) {
      const id = directory.readUInt16LE(extra);
      const fieldLength = directory.readUInt16LE(extra + 2);
      if (id === 0x0001) {
        let field = extra + 4;
        for (const key of ["uncompressed", "compressed", "local"] as const)
          if (entry[key] === U32) {
            entry[key] = u64(directory, field);
            field += 8;
          }
      }
      extra += 4 + fieldLength;
    }
    yield entry;
    at = extraEnd + commentLength;
  }
}

const parser = new XMLParser({ removeNSPrefix: true, parseTagValue: false, trimValues: true });

function text(value: unknown): string {
  return typeof value === "string" ? value : typeof value === "number" ? String(value) : "";
}

/** The package's manifest, or NupkgError saying what is wrong with it. */
export async function readNupkgManifest(read: RangeReader, size: number): Promise<NupkgManifest> {
  const { entries, directory } = await directoryOf(read, size);
  let found: Entry | undefined;
  for (const entry of entriesOf(directory, entries))
    if (!entry.name.includes("/") && entry.name.toLowerCase().endsWith(".nuspec")) {
      found = entry;
      break;
    }
  if (!found) throw new NupkgError("the package has no .nuspec manifest");
  if (found.uncompressed > MAX_MANIFEST || found.compressed > MAX_MANIFEST)
    throw new NupkgError("the package's manifest is too large");
  const header = await read(found.local, found.local + 29);
  if (header.readUInt32LE(0) !== LOCAL) throw new NupkgError("the zip is corrupt");
  const start = found.local + 30 + header.readUInt16LE(26) + header.readUInt16LE(28);
  const stored =
    found.compressed === 0 ? Buffer.alloc(0) : await read(start, start + found.compressed - 1);
  let xml: string;
  if (found.method === 0) xml = stored.toString("utf8");
  else if (found.method === 8)
    xml = inflateRawSync(stored, { maxOutputLength: MAX_MANIFEST }).toString("utf8");
  else throw new NupkgError("the manifest is compressed in a way zip readers rarely support");
  const parsed = parser.parse(xml) as { package?: { metadata?: Record<string, unknown> } };
  const metadata = parsed.package?.metadata;
  if (!metadata) throw new NupkgError("the manifest has no <metadata>");
  const manifest: NupkgManifest = {
    id: text(metadata.id).trim(),
    version: text(metadata.version).trim(),
    os: text(metadata.os).trim().toLowerCase(),
    machineArchitecture: text(metadata.machineArchitecture).trim().toLowerCase(),
    channel: text(metadata.channel).trim(),
  };
  if (!manifest.id) throw new NupkgError("the manifest has no <id>");
  if (!manifest.version) throw new NupkgError("the manifest has no <version>");
  return manifest;
}
