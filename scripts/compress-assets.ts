/**
 * Part of `npm run build`: writes brotli (.br, quality 11) and gzip (.gz, level 9) copies beside
 * every text asset of build/client/assets, once, so the server sends them as they are instead of
 * compressing the same bytes on every request (express-static-gzip picks the copy the browser
 * accepts). Files under 1 KB are left alone: compression would not pay for its headers.
 */
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";

const ASSETS = path.resolve(import.meta.dirname, "..", "build", "client", "assets");
const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|xml|html)$/;
const MIN_BYTES = 1024;

let files = 0;
let before = 0;
let afterBrotli = 0;
for (const name of fs.readdirSync(ASSETS)) {
  if (!COMPRESSIBLE.test(name)) continue;
  const file = path.join(ASSETS, name);
  const bytes = fs.readFileSync(file);
  if (bytes.length < MIN_BYTES) continue;
  const br = zlib.brotliCompressSync(bytes, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
    },
  });
  const gz = zlib.gzipSync(bytes, { level: 9 });
  fs.writeFileSync(`${file}.br`, br);
  fs.writeFileSync(`${file}.gz`, gz);
  files += 1;
  before += bytes.length;
  afterBrotli += br.length;
}
console.log(
  `compressed ${files} assets: ${Math.round(before / 1024)} KB → ${Math.round(afterBrotli / 1024)} KB brotli`,
);
