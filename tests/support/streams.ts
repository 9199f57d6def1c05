/** A body of `total` bytes ("a") sent in pieces with no Content-Length (Transfer-Encoding: chunked). */
export function chunkedBody(total: number, piece = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= total) return controller.close();
      const size = Math.min(piece, total - sent);
      sent += size;
      controller.enqueue(new Uint8Array(size).fill(0x61));
    },
  });
}
