/**
 * Renders the site's raster images from SVG: the default social image (1200×630 JPEG), the
 * favicon and the app icons. Run `npm run images` after changing the product name or colours;
 * the outputs are committed so that builds need no image tooling.
 */
import fs from "node:fs";
import path from "node:path";
import sharp from "sharp";
import { site } from "../app/config/site";

const publicDir = path.resolve(import.meta.dirname, "..", "public");
const logo = fs.readFileSync(path.join(publicDir, "logo.svg"));

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function ogSvg(): string {
  const pins = Array.from({ length: 14 }, (_, i) => {
    const y = 150 + i * 24;
    return `<path d="M720 ${y}h40M1000 ${y}h40" stroke="#4ade80" stroke-width="6" stroke-linecap="round"/>`;
  }).join("");
  return `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="630" viewBox="0 0 1200 630">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#020617"/><stop offset="1" stop-color="#0f172a"/>
    </linearGradient>
    <pattern id="grid" width="40" height="40" patternUnits="userSpaceOnUse">
      <path d="M40 0H0V40" fill="none" stroke="#1e293b" stroke-width="1"/>
    </pattern>
  </defs>
  <rect width="1200" height="630" fill="url(#bg)"/>
  <rect width="1200" height="630" fill="url(#grid)" opacity="0.6"/>
  <g>${pins}</g>
  <rect x="760" y="130" width="240" height="360" rx="20" fill="#22c55e"/>
  <rect x="800" y="170" width="160" height="280" rx="12" fill="#0f172a"/>
  <circle cx="830" cy="200" r="10" fill="#22c55e"/>
  <text x="80" y="250" font-family="DejaVu Sans, sans-serif" font-size="96" font-weight="700" fill="#f8fafc">${escapeXml(site.product.name)}</text>
  <text x="80" y="330" font-family="DejaVu Sans, sans-serif" font-size="36" fill="#4ade80">${escapeXml(site.product.tagline)}</text>
  <text x="80" y="420" font-family="DejaVu Sans, sans-serif" font-size="28" fill="#cbd5e1">For Mac and Windows · Plans in ₹</text>
  <text x="80" y="560" font-family="DejaVu Sans, sans-serif" font-size="24" fill="#94a3b8">${escapeXml(site.company.legalName)}</text>
</svg>`;
}

/** An .ico holding one PNG image (supported by every current browser). */
function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(22);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(1, 4);
  header.writeUInt8(size >= 256 ? 0 : size, 6);
  header.writeUInt8(size >= 256 ? 0 : size, 7);
  header.writeUInt8(0, 8);
  header.writeUInt8(0, 9);
  header.writeUInt16LE(1, 10);
  header.writeUInt16LE(32, 12);
  header.writeUInt32LE(png.length, 14);
  header.writeUInt32LE(22, 18);
  return Buffer.concat([header, png]);
}

async function main() {
  fs.mkdirSync(path.join(publicDir, "og"), { recursive: true });
  await sharp(Buffer.from(ogSvg()))
    .jpeg({ quality: 85, mozjpeg: true })
    .toFile(path.join(publicDir, "og", "og-default.jpg"));
  const favicon = await sharp(logo, { density: 300 }).resize(32, 32).png().toBuffer();
  fs.writeFileSync(path.join(publicDir, "favicon.ico"), pngToIco(favicon, 32));
  await sharp(logo, { density: 600 })
    .resize(180, 180)
    .png()
    .toFile(path.join(publicDir, "apple-touch-icon.png"));
  await sharp(logo, { density: 600 })
    .resize(192, 192)
    .png()
    .toFile(path.join(publicDir, "icon-192.png"));
  await sharp(logo, { density: 600 })
    .resize(512, 512)
    .png()
    .toFile(path.join(publicDir, "icon-512.png"));
  const manifest = {
    name: site.product.name,
    short_name: site.product.name,
    description: site.product.description,
    start_url: "/",
    display: "standalone",
    background_color: site.theme.themeColor,
    theme_color: site.theme.themeColor,
    icons: [
      { src: "/icon-192.png", sizes: "192x192", type: "image/png" },
      { src: "/icon-512.png", sizes: "512x512", type: "image/png" },
    ],
  };
  fs.writeFileSync(
    path.join(publicDir, "site.webmanifest"),
    JSON.stringify(manifest, null, 2) + "\n",
  );
  console.log("images written to", publicDir);
}

await main();
