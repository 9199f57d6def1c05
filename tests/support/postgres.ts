import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";

/** The migrated database every new one on the run's cluster is copied from (global setup). */
export const TEMPLATE_DATABASE = "pinout_migrated";

/** The newest PostgreSQL server binaries on this machine, if any. */
export function findPostgresBin(): string | null {
  const root = "/usr/lib/postgresql";
  if (!fs.existsSync(root)) return null;
  const versions = fs
    .readdirSync(root)
    .filter((name) => fs.existsSync(path.join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], "bin") : null;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => resolve(typeof address === "object" && address ? address.port : 0));
    });
  });
}

export interface Cluster {
  url: string;
  /** Stops the server and deletes the cluster. */
  stop(): void;
  /**
   * The CPU seconds the server has used so far: the postmaster's and those of the processes it
   * has reaped (every ended connection). `pg_ctl` detaches the server, so `time` around a test run
   * does not count it; the suite prints it beside its own (decision 0045). Undefined off Linux.
   */
  cpuSeconds(): number | undefined;
  /** Stops the server only (an outage): `resume()` starts it again on the same port. */
  pause(): void;
  resume(): void;
}

/**
 * A throwaway PostgreSQL cluster on a free loopback port, in a temporary folder. initdb refuses
 * to run as root, so as root the cluster runs as the `postgres` user.
 */
export async function startCluster(bin: string): Promise<Cluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pinout-pg-"));
  const dataDir = path.join(dir, "data");
  const asRoot = process.getuid?.() === 0;
  const run = (command: string, args: string[]) => {
    const file = path.join(bin, command);
    const result = asRoot
      ? spawnSync("runuser", ["-u", "postgres", "--", file, ...args], { encoding: "utf8" })
      : spawnSync(file, args, { encoding: "utf8" });
    if (result.status !== 0) {
      throw new Error(`${command} failed (${result.status}): ${result.stderr || result.stdout}`);
    }
  };
  if (asRoot) execFileSync("chown", ["postgres:postgres", dir]);
  fs.chmodSync(dir, 0o700);
  run("initdb", [
    "-D",
    dataDir,
    "-U",
    "postgres",
    "-A",
    "trust",
    "--no-sync",
    "-E",
    "UTF8",
    "--locale=C",
  ]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200`;
  const start = () =>
    run("pg_ctl", [
      "-D",
      dataDir,
      "-o",
      options,
      "-l",
      path.join(dir, "server.log"),
      "-w",
      "start",
    ]);
  start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    pause() {
      run("pg_ctl", ["-D", dataDir, "-m", "fast", "-w", "stop"]);
    },
    resume: start,
    cpuSeconds: () => postmasterCpuSeconds(dataDir),
    stop() {
      try {
        run("pg_ctl", ["-D", dataDir, "-m", "immediate", "-w", "stop"]);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}

/** utime + stime + cutime + cstime of the postmaster named in `postmaster.pid`, in seconds. */
function postmasterCpuSeconds(dataDir: string): number | undefined {
  try {
    const pid = fs.readFileSync(path.join(dataDir, "postmaster.pid"), "utf8").split("\n")[0];
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after the command's closing parenthesis: state is field 3, utime field 14.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const ticks = fields.slice(11, 15).reduce((sum, field) => sum + Number(field), 0);
    const perSecond = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim());
    return Number.isFinite(ticks) && perSecond > 0 ? ticks / perSecond : undefined;
  } catch {
    return undefined;
  }
}
