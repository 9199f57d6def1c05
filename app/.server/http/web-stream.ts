/**
 * A Node stream as a web stream that reads only when asked (issue 58). Node 20's
 * `Readable.toWeb` queues up to `readableHighWaterMark` *chunks* (a count, not bytes): a 200 MB
 * file read from disk faster than the client takes it was held in memory whole. Here each `pull`
 * reads one chunk, so a slow client slows the reading, and cancelling destroys the source.
 */
import type { Readable } from "node:stream";

export function webStreamOf(source: Readable): ReadableStream<Uint8Array> {
  const chunks = source[Symbol.asyncIterator]() as AsyncIterator<Uint8Array>;
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await chunks.next();
        if (next.done) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        source.destroy();
        await chunks.return?.();
      },
    },
    // Nothing read ahead: a chunk is read when the writer asks for one.
    { highWaterMark: 0 },
  );
}
