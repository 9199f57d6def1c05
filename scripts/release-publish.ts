/**
 * npm run release:publish -- --version 1.4.0 --mac Pinout-1.4.0.dmg --windows Pinout-Setup-1.4.0.exe
 *                            [--notes notes.md | --notes "text"] [--channel beta]
 *
 * Hashes the installers, stores them under DATA_DIR/releases and records the release. Takes the
 * database lock like the server: with the embedded database, stop the server first.
 */
import fs from "node:fs";
import { parseArgs } from "node:util";
import { closeDatabase, initDatabase } from "~/.server/db";
import { publishRelease, ReleaseError } from "~/.server/downloads/releases.server";

const USAGE =
  "usage: npm run release:publish -- --version X.Y.Z [--mac file.dmg] [--windows file.exe] [--notes file.md|text] [--channel stable|beta]";

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        version: { type: "string" },
        mac: { type: "string" },
        windows: { type: "string" },
        notes: { type: "string" },
        channel: { type: "string", default: "stable" },
      },
      strict: true,
    }));
  } catch (error) {
    console.error(`error: ${(error as Error).message}\n${USAGE}`);
    return 2;
  }
  if (!values.version) {
    console.error(`error: --version is required\n${USAGE}`);
    return 2;
  }
  if (values.channel !== "stable" && values.channel !== "beta") {
    console.error("error: --channel must be stable or beta");
    return 2;
  }
  const notes =
    values.notes && fs.existsSync(values.notes) && fs.statSync(values.notes).isFile()
      ? fs.readFileSync(values.notes, "utf8")
      : (values.notes ?? "");
  const files = [
    ...(values.mac ? [{ platform: "mac" as const, filePath: values.mac }] : []),
    ...(values.windows ? [{ platform: "windows" as const, filePath: values.windows }] : []),
  ];

  await initDatabase();
  try {
    const release = await publishRelease({
      version: values.version,
      channel: values.channel,
      notes,
      files,
    });
    console.log(`published ${release.version} (${release.channel})`);
    for (const asset of release.assets) {
      console.log(
        `  ${asset.platform}: ${asset.fileName}  ${asset.sizeBytes} bytes  sha256 ${asset.sha256}`,
      );
    }
    return 0;
  } catch (error) {
    if (error instanceof ReleaseError) {
      console.error(`error: ${error.message}`);
      return 1;
    }
    throw error;
  } finally {
    await closeDatabase();
  }
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(`error: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  },
);
