import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

export const ROOT = path.resolve(import.meta.dirname, "..", "..");

/** Every public page of issue 12: the same for everyone, served from the shared cache. */
export const PUBLIC_PAGES = [
  "/",
  "/landing",
  "/pricing",
  "/download",
  "/blog",
  "/blog/welcome-to-pinout-blog",
  "/legal/terms",
  "/about",
  "/search",
];

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface BenchSite {
  url: string;
  dataDir: string;
  child: ChildProcess;
  /** Stops the server; resolves once it exited. */
  stop(): Promise<void>;
}

/**
 * The production build served by the real server on a fresh data folder, for the benchmarks:
 * builds first if there is no build, resolves once /readyz answers.
 */
export async function startBenchSite(
  env: Record<string, string> = {},
  options: { dataDir?: string; nodeArgs?: string[] } = {},
): Promise<BenchSite> {
  if (!fs.existsSync(path.join(ROOT, "build", "server", "index.js"))) {
    const build = spawn("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
    await new Promise((resolve) => build.once("exit", resolve));
  }
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dataDir = options.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pinout-bench-"));
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "server.js"], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH,
      TMPDIR: process.env.TMPDIR,
      NODE_ENV: "production",
      PORT: String(port),
      SITE_URL: url,
      DATA_DIR: dataDir,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  for (let i = 0; i < 240; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok)
        return {
          url,
          dataDir,
          child,
          stop: () =>
            new Promise<void>((resolve) => {
              if (child.exitCode !== null) return resolve();
              child.once("exit", () => resolve());
              child.kill("SIGTERM");
            }),
        };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  child.kill("SIGKILL");
  throw new Error("the server did not become ready");
}
