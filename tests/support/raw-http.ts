/**
 * Raw HTTP for tests that compare answers byte for byte: one request written as given, on a
 * connection of its own, and the answer with its head split, its chunks joined and its body
 * decoded (br, gzip, deflate).
 */
import net from "node:net";
import zlib from "node:zlib";

export interface RawAnswer {
  status: string;
  /** Every header but Date and X-Request-Id (`raw`), names lower-cased, sorted. */
  headers: string[];
  body: string;
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const end = bytes.indexOf("\r\n", at);
    const size = parseInt(bytes.subarray(at, end).toString(), 16);
    if (!size) return Buffer.concat(parts);
    parts.push(bytes.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
}

/** One request on its own connection, as written; the answer with its body decoded. */
export async function raw(port: number, request: string): Promise<RawAnswer> {
  const answer = await rawWithEveryHeader(port, request);
  return {
    ...answer,
    headers: answer.headers.filter((line) => !/^(date|x-request-id):/.test(line)),
  };
}

/** As `raw`, keeping the headers that differ from one answer to the next (Date, X-Request-Id). */
export function rawWithEveryHeader(port: number, request: string): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => socket.write(request));
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    socket.on("error", reject);
    socket.on("close", () => {
      const bytes = Buffer.concat(chunks);
      const split = bytes.indexOf("\r\n\r\n");
      const [status = "", ...lines] = bytes.subarray(0, split).toString("latin1").split("\r\n");
      const headers = lines
        .map((line) => line.replace(/^[^:]+/, (name) => name.toLowerCase()))
        .sort();
      let body: Buffer = bytes.subarray(split + 4);
      if (headers.includes("transfer-encoding: chunked")) body = dechunk(body);
      // An answer to HEAD names its encoding but has no body to decode.
      const encoding =
        body.length === 0 ? undefined : /^content-encoding: (.+)$/m.exec(headers.join("\n"))?.[1];
      if (encoding === "br") body = zlib.brotliDecompressSync(body);
      if (encoding === "gzip") body = zlib.gunzipSync(body);
      if (encoding === "deflate") body = zlib.inflateSync(body);
      resolve({ status, headers, body: body.toString("utf8") });
    });
  });
}
