import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { site } from "~/config/site";
import { logger } from "../logger";
import { publishRelease } from "./manage.server";
import { hasAnyRelease } from "./queries.server";

const DEMO_VERSION = "1.0.0";

/**
 * On the embedded default with no release published, publishes a first release so the download
 * page, its links and the update feeds work out of the box. Its files are placeholders, not
 * installers (README: "Publishing releases"); admins see that on /admin/releases, visitors never
 * read operator instructions.
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
        `The first release of ${name}.`,
        "",
        "- Pin maps for the boards you use, searchable offline.",
        "- Sign in once and the app remembers your plan on this device.",
        "- Updates install themselves from this site.",
      ].join("\n"),
      files: [{ filePath: mac }, { filePath: windows }],
    });
    logger().info({ version: DEMO_VERSION }, "published the demo release");
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
