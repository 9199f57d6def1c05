/**
 * Renders the landing page's product tour (public/video/): a 12-second animation of the app's
 * main window (pick a board, hover a pin, read the serial log, flash firmware), its poster and its
 * English captions. Frames are SVG drawn here and rasterised by sharp; ffmpeg (Debian:
 * `apt-get install ffmpeg`) encodes them as VP9 WebM. Run `npm run video` after changing the
 * product name or colours; the outputs are committed so that builds need neither.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import sharp from "sharp";
import { site } from "../app/config/site";
import { TOUR_VIDEO } from "../app/config/video";

const WIDTH = TOUR_VIDEO.width;
const HEIGHT = TOUR_VIDEO.height;
const FPS = 24;
const SECONDS = 12;
const outDir = path.resolve(import.meta.dirname, "..", "public", "video");

const C = {
  page: "#020617",
  window: "#0b1220",
  bar: "#111a2e",
  panel: "#0f172a",
  line: "#1e293b",
  green: "#22c55e",
  greenLight: "#4ade80",
  greenDark: "#14532d",
  amber: "#f59e0b",
  text: "#e2e8f0",
  soft: "#cbd5e1",
  muted: "#94a3b8",
};
const SANS = "DejaVu Sans, sans-serif";
const MONO = "DejaVu Sans Mono, monospace";

/** What the tour shows and when; the captions file says the same. */
const SCENES = [
  { from: 0, to: 3, caption: `${site.product.name} opens on your board: every pin labelled.` },
  { from: 3, to: 6.5, caption: "Point at a pin to see what it can do: GPIO 21 is I²C SDA." },
  { from: 6.5, to: 9.5, caption: "The serial monitor shows your firmware's log as it runs." },
  { from: 9.5, to: 12, caption: "Flash new firmware in one click, on Mac or Windows." },
] as const;

const LEFT_PINS = ["3V3", "EN", "VP", "VN", "34", "35", "32", "33", "25", "26", "27", "14"];
const RIGHT_PINS = ["GND", "23", "22", "TX", "RX", "21", "19", "18", "5", "17", "16", "4"];
const LOG: [time: string, text: string][] = [
  ["12:04:01.118", "boot: ESP-IDF v5.2 bootloader"],
  ["12:04:01.204", "boot: chip revision v3.0"],
  ["12:04:01.317", "wifi: connected, rssi -48"],
  ["12:04:01.402", "i2c: found 0x3C, 0x76"],
  ["12:04:01.511", "sensor: 24.8 °C, 61 %RH"],
  ["12:04:02.511", "sensor: 24.9 °C, 61 %RH"],
];

const clamp01 = (x: number) => Math.min(1, Math.max(0, x));
const ease = (x: number) => 1 - (1 - clamp01(x)) ** 3;
/** 0 → 1 over [start, start + duration] seconds, eased. */
const progress = (t: number, start: number, duration: number) => ease((t - start) / duration);

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pins(t: number): string {
  const parts: string[] = [];
  const highlight = progress(t, 3.2, 0.5);
  LEFT_PINS.forEach((pin, i) => {
    const lit = progress(t, 0.6 + i * 0.08, 0.3);
    const y = 150 + i * 27;
    parts.push(
      `<rect x="150" y="${y}" width="20" height="13" rx="3" fill="${C.greenLight}" opacity="${0.15 + 0.85 * lit}"/>`,
      `<text x="140" y="${y + 11}" text-anchor="end" fill="${C.soft}" font-size="13" font-family="${MONO}" opacity="${lit}">${pin}</text>`,
    );
  });
  RIGHT_PINS.forEach((pin, i) => {
    const lit = progress(t, 0.7 + i * 0.08, 0.3);
    const y = 150 + i * 27;
    const isSda = pin === "21";
    const fill = isSda && highlight > 0 ? C.amber : C.greenLight;
    parts.push(
      `<rect x="290" y="${y}" width="20" height="13" rx="3" fill="${fill}" opacity="${0.15 + 0.85 * lit}"/>`,
      `<text x="320" y="${y + 11}" fill="${C.soft}" font-size="13" font-family="${MONO}" opacity="${lit}">${pin}</text>`,
    );
    if (isSda && highlight > 0) {
      const r = 10 + 6 * Math.sin(t * 5);
      parts.push(
        `<circle cx="300" cy="${y + 6}" r="${r}" fill="none" stroke="${C.amber}" stroke-width="2" opacity="${highlight * 0.8}"/>`,
      );
    }
  });
  return parts.join("");
}

function tooltip(t: number): string {
  const shown = progress(t, 3.4, 0.4) * (1 - progress(t, 9.2, 0.4));
  if (shown <= 0) return "";
  const y = 150 + 5 * 27 - 14;
  return `<g opacity="${shown}">
    <rect x="355" y="${y}" width="150" height="66" rx="8" fill="${C.bar}" stroke="${C.amber}"/>
    <text x="369" y="${y + 22}" fill="${C.text}" font-size="14" font-weight="700" font-family="${SANS}">GPIO 21</text>
    <text x="369" y="${y + 41}" fill="${C.soft}" font-size="12" font-family="${SANS}">I²C SDA · 3.3 V</text>
    <text x="369" y="${y + 57}" fill="${C.muted}" font-size="11" font-family="${SANS}">pull-up 4.7 kΩ</text>
  </g>`;
}

function serialLog(t: number): string {
  const lines = LOG.map(([time, text], i) => {
    const shown = progress(t, 6.7 + i * 0.45, 0.25);
    const y = 150 + i * 26;
    return `<g opacity="${shown}">
      <text x="548" y="${y}" fill="${C.muted}" font-size="12" font-family="${MONO}">${time}</text>
      <text x="650" y="${y}" fill="${i === 3 ? C.greenLight : C.soft}" font-size="12" font-family="${MONO}">${escapeXml(text)}</text>
    </g>`;
  }).join("");
  const cursorOn = Math.floor(t * 2) % 2 === 0;
  const cursorY = 150 + Math.min(LOG.length, Math.max(0, Math.floor((t - 6.7) / 0.45) + 1)) * 26;
  return `${lines}<rect x="548" y="${cursorY - 11}" width="8" height="14" fill="${C.greenLight}" opacity="${cursorOn ? 0.9 : 0}"/>`;
}

function flashBar(t: number): string {
  const fill = progress(t, 9.9, 1.4);
  const done = t >= 11.35;
  const label = done
    ? "Flashed in 4.2 s ✓"
    : fill > 0
      ? `Flashing… ${Math.round(fill * 100)} %`
      : "";
  const pressed = t >= 9.7 && t < 9.9;
  return `<rect x="548" y="382" width="128" height="36" rx="8" fill="${pressed ? C.greenDark : C.green}"/>
    <text x="612" y="405" text-anchor="middle" fill="${C.page}" font-size="14" font-weight="700" font-family="${SANS}">Flash</text>
    <rect x="692" y="394" width="200" height="12" rx="6" fill="${C.line}"/>
    <rect x="692" y="394" width="${200 * fill}" height="12" rx="6" fill="${C.greenLight}"/>
    <text x="692" y="440" fill="${done ? C.greenLight : C.soft}" font-size="13" font-family="${SANS}">${label}</text>`;
}

/** One frame of the tour, as SVG. */
function frame(t: number): string {
  const open = progress(t, 0, 0.6);
  const scale = 0.96 + 0.04 * open;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}">
  <rect width="${WIDTH}" height="${HEIGHT}" fill="${C.page}"/>
  <g opacity="${open}" transform="translate(${(WIDTH * (1 - scale)) / 2} ${(HEIGHT * (1 - scale)) / 2}) scale(${scale})">
    <rect x="20.5" y="20.5" width="919" height="499" rx="16" fill="${C.window}" stroke="${C.line}"/>
    <path d="M36.5 20.5h887a16 16 0 0 1 16 16v24h-919v-24a16 16 0 0 1 16-16z" fill="${C.bar}"/>
    <circle cx="46" cy="41" r="6" fill="#ef4444"/><circle cx="66" cy="41" r="6" fill="${C.amber}"/><circle cx="86" cy="41" r="6" fill="${C.green}"/>
    <text x="480" y="46" text-anchor="middle" fill="${C.muted}" font-size="14" font-family="${SANS}">${escapeXml(site.product.name)} · ESP32-DevKitC · /dev/ttyUSB0 · 115200</text>
    <rect x="40" y="84" width="460" height="416" rx="12" fill="${C.panel}" stroke="${C.line}"/>
    <text x="60" y="114" fill="${C.text}" font-size="15" font-weight="700" font-family="${SANS}">Pin map</text>
    <rect x="180" y="132" width="100" height="340" rx="10" fill="${C.greenDark}" stroke="${C.green}"/>
    <rect x="200" y="150" width="60" height="48" rx="5" fill="${C.panel}" stroke="${C.greenLight}"/>
    <text x="230" y="179" text-anchor="middle" fill="${C.greenLight}" font-size="11" font-family="${MONO}">ESP32</text>
    ${pins(t)}
    ${tooltip(t)}
    <rect x="524" y="84" width="396" height="270" rx="12" fill="${C.panel}" stroke="${C.line}"/>
    <text x="548" y="114" fill="${C.text}" font-size="15" font-weight="700" font-family="${SANS}">Serial monitor</text>
    ${serialLog(t)}
    <rect x="524" y="366" width="396" height="134" rx="12" fill="${C.panel}" stroke="${C.line}"/>
    ${flashBar(t)}
    <text x="548" y="480" fill="${C.muted}" font-size="12" font-family="${SANS}">firmware.bin · 1.2 MB · 921600 baud</text>
  </g>
</svg>`;
}

/** WebVTT cue time: 00:00:03.000 */
function cueTime(seconds: number): string {
  const ms = Math.round(seconds * 1000);
  const hh = String(Math.floor(ms / 3_600_000)).padStart(2, "0");
  const mm = String(Math.floor((ms % 3_600_000) / 60_000)).padStart(2, "0");
  const ss = String(Math.floor((ms % 60_000) / 1000)).padStart(2, "0");
  return `${hh}:${mm}:${ss}.${String(ms % 1000).padStart(3, "0")}`;
}

async function main() {
  const frames = fs.mkdtempSync(path.join(os.tmpdir(), "tour-frames-"));
  try {
    for (let i = 0; i < FPS * SECONDS; i++) {
      const file = path.join(frames, `${String(i).padStart(4, "0")}.png`);
      await sharp(Buffer.from(frame(i / FPS)))
        .png()
        .toFile(file);
    }
    fs.mkdirSync(outDir, { recursive: true });
    const video = path.join(outDir, path.basename(TOUR_VIDEO.src));
    // VP9 at constant quality: flat colours and few moving parts compress to a few hundred KB.
    execFileSync(
      "ffmpeg",
      [
        ...["-y", "-loglevel", "error", "-framerate", String(FPS)],
        ...["-i", path.join(frames, "%04d.png")],
        ...["-c:v", "libvpx-vp9", "-b:v", "0", "-crf", "42", "-row-mt", "1"],
        ...["-pix_fmt", "yuv420p", "-an", video],
      ],
      { stdio: "inherit" },
    );
    // The poster is the finished window: the board, the log and a completed flash.
    await sharp(Buffer.from(frame(SECONDS - 0.2)))
      .webp({ quality: 70 })
      .toFile(path.join(outDir, path.basename(TOUR_VIDEO.poster)));
    const cues = SCENES.map(
      (scene, i) => `${i + 1}\n${cueTime(scene.from)} --> ${cueTime(scene.to)}\n${scene.caption}\n`,
    );
    fs.writeFileSync(
      path.join(outDir, path.basename(TOUR_VIDEO.captions)),
      `WEBVTT\n\n${cues.join("\n")}`,
    );
    for (const file of fs.readdirSync(outDir)) {
      console.log(`${file}: ${Math.round(fs.statSync(path.join(outDir, file)).size / 1024)} KB`);
    }
  } finally {
    fs.rmSync(frames, { recursive: true, force: true });
  }
}

await main();
