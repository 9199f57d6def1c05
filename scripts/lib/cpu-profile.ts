/**
 * Summarises a V8 .cpuprofile (node --cpu-prof) for the benchmark report: where the server's CPU
 * time went, by package (inclusive: a package's own code and what it calls) and by function (self).
 */
import fs from "node:fs";

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** "react-dom", "@electric-sql/pglite", "app" (our bundle), "node:…" or a V8 bucket. */
function bucketOf(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  const inModules = url.split("node_modules/")[1];
  if (inModules) {
    const parts = inModules.split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? url);
  }
  if (url.includes("/build/server/")) return "app (server bundle)";
  if (url.startsWith("node:")) return url.split("/")[0] ?? url;
  if (url === "") return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("wasm://")) return "wasm";
  return url.split("/").pop() ?? url;
}

export function summariseProfile(file: string, top = 12): string[] {
  const profile = JSON.parse(fs.readFileSync(file, "utf8")) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const selfTime = new Map<number, number>();
  profile.samples.forEach((id, i) =>
    selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  let total = 0;
  let idle = 0;
  const inclusive = new Map<string, number>();
  const selfByFunction = new Map<string, number>();
  for (const [id, time] of selfTime) {
    const node = nodes.get(id);
    if (!node) continue;
    total += time;
    if (node.callFrame.functionName === "(idle)") idle += time;
    const name = `${node.callFrame.functionName || "(anonymous)"} (${bucketOf(node)})`;
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + time);
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const current = nodes.get(cursor);
      if (!current || current.callFrame.functionName === "(root)") continue;
      const bucket = bucketOf(current);
      if (seen.has(bucket)) continue;
      seen.add(bucket);
      inclusive.set(bucket, (inclusive.get(bucket) ?? 0) + time);
    }
  }
  const busy = total - idle;
  const share = (time: number) => `${((time / busy) * 100).toFixed(1)} %`;
  const rows = (map: Map<string, number>) =>
    [...map]
      .filter(([name]) => !name.startsWith("(idle)"))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, time]) => `| ${name} | ${share(time)} |`);
  return [
    `Busy CPU ${Math.round(busy / 1000)} ms of ${Math.round(total / 1000)} ms sampled. Shares of the busy time:`,
    "",
    "| package (inclusive) | share |",
    "| --- | ---: |",
    ...rows(inclusive),
    "",
    "| function (self) | share |",
    "| --- | ---: |",
    ...rows(selfByFunction),
    "",
  ];
}
