import { randomBytes } from "node:crypto";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { NupkgError, readNupkgManifest } from "./nupkg";

const NUSPEC = `<?xml version="1.0"?>
<package xmlns="http://schemas.microsoft.com/packaging/2010/07/nuspec.xsd">
  <metadata><id>Pinout</id><version>1.2.0</version><os>osx</os>
  <machineArchitecture>arm64</machineArchitecture><channel>osx</channel></metadata>
</package>`;

function reader(bytes: Buffer) {
  const reads: number[] = [];
  const read = async (start: number, end: number) => {
    reads.push(end - start + 1);
    return bytes.subarray(start, end + 1);
  };
  return { read, reads };
}

/** The same zip with a zip64 end record, as zips over 4 GB or 65,535 entries have. */
function asZip64(zip: Buffer): Buffer {
  const eocd = zip.length - 22;
  const entries = zip.readUInt16LE(eocd + 10);
  const size = zip.readUInt32LE(eocd + 12);
  const offset = zip.readUInt32LE(eocd + 16);
  const record = Buffer.alloc(56);
  record.writeUInt32LE(0x06064b50, 0);
  record.writeBigUInt64LE(44n, 4);
  record.writeBigUInt64LE(BigInt(entries), 24);
  record.writeBigUInt64LE(BigInt(entries), 32);
  record.writeBigUInt64LE(BigInt(size), 40);
  record.writeBigUInt64LE(BigInt(offset), 48);
  const locator = Buffer.alloc(20);
  locator.writeUInt32LE(0x07064b50, 0);
  locator.writeBigUInt64LE(BigInt(eocd), 8);
  locator.writeUInt32LE(1, 16);
  const end = Buffer.from(zip.subarray(eocd));
  end.writeUInt16LE(0xffff, 8);
  end.writeUInt16LE(0xffff, 10);
  end.writeUInt32LE(0xffffffff, 12);
  end.writeUInt32LE(0xffffffff, 16);
  return Buffer.concat([zip.subarray(0, eocd), record, locator, end]);
}

describe("readNupkgManifest", () => {
  // Random bytes do not compress: the package is 3 MB, of which a few KB are read.
  const payload = randomBytes(3_000_000);
  const zip = Buffer.from(
    zipSync(
      { "lib/app/Pinout": payload, "Pinout.nuspec": strToU8(NUSPEC) },
      { level: 6, mtime: new Date("2026-01-01") },
    ),
  );

  it("reads the manifest by ranges, not the package", async () => {
    const { read, reads } = reader(zip);
    expect(await readNupkgManifest(read, zip.length)).toEqual({
      id: "Pinout",
      version: "1.2.0",
      os: "osx",
      machineArchitecture: "arm64",
      channel: "osx",
    });
    expect(reads.reduce((total, bytes) => total + bytes, 0)).toBeLessThan(70_000);
  });

  it("reads a stored (uncompressed) manifest and a zip64 directory", async () => {
    const stored = Buffer.from(
      zipSync({ "Pinout.nuspec": [strToU8(NUSPEC), { level: 0 }], "a.txt": strToU8("a") }),
    );
    expect((await readNupkgManifest(reader(stored).read, stored.length)).version).toBe("1.2.0");
    const zip64 = asZip64(zip);
    expect((await readNupkgManifest(reader(zip64).read, zip64.length)).os).toBe("osx");
  });

  it("says what is wrong with something that is not a package", async () => {
    const cases: [Buffer, RegExp][] = [
      [
        Buffer.from("not a zip at all, but long enough to be looked at"),
        /no end of central directory/,
      ],
      [Buffer.from(zipSync({ "lib/Pinout.nuspec": strToU8(NUSPEC) })), /no \.nuspec manifest/],
      [
        Buffer.from(
          zipSync({
            "x.nuspec": strToU8("<package><metadata><version>1.0.0</version></metadata></package>"),
          }),
        ),
        /no <id>/,
      ],
      [Buffer.from(zipSync({ "x.nuspec": strToU8("<nothing/>") })), /no <metadata>/],
      [Buffer.alloc(10), /not a zip file/],
    ];
    for (const [bytes, reason] of cases) {
      const error = await readNupkgManifest(reader(bytes).read, bytes.length).catch(
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(NupkgError);
      expect((error as Error).message).toMatch(reason);
    }
  });
});
