import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { site } from "~/config/site";
import { logger } from "../logger";
import { hasAnyRelease, publishRelease } from "./releases.server";

const DEMO_VERSION = "1.0.0";

/**
 * On the embedded default with no release published, publishes a clearly labelled demo release so
 * the download page and its links work out of the box. Its files are placeholders, not installers;
 * `npm run release:publish` with real builds replaces them.
 */
export async function ensureDemoRelease(): Promise<void> {
  if (await hasAnyRelease()) return;
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), "pinout-demo-release-"));
  try {
    const name = site.product.name;
    const body = (platform: string) =>
      Buffer.from(
        `${name} ${DEMO_VERSION} for ${platform}: demo placeholder published on first start.\n`.repeat(
          2048,
        ),
      );
    const mac = path.join(dir, `${name}-${DEMO_VERSION}.dmg`);
    const windows = path.join(dir, `${name}-Setup-${DEMO_VERSION}.exe`);
    await fs.writeFile(mac, body("macOS"));
    await fs.writeFile(windows, body("Windows"));
    await publishRelease({
      version: DEMO_VERSION,
      notes: [
        "Demo release created on first start of the embedded database.",
        "",
        "- The files are placeholders, not installers.",
        "- Publish a real build with `npm run release:publish -- --version 1.0.1 --mac <file.dmg> --windows <file.exe>`.",
      ].join("\n"),
      files: [
        { platform: "mac", filePath: mac },
        { platform: "windows", filePath: windows },
      ],
    });
    logger().info({ version: DEMO_VERSION }, "published the demo release");
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
