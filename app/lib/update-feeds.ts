/** The updaters' feed addresses, as the admin releases page shows them to app developers. */
export const UPDATE_FEED_URLS = [
  ["electron-updater (Windows)", "/updates/stable/latest.yml"],
  ["electron-updater (macOS)", "/updates/stable/latest-mac.yml"],
  ["Tauri (static)", "/updates/stable/tauri.json"],
  ["Tauri (dynamic)", "/updates/tauri/{{target}}/{{arch}}/{{current_version}}"],
  ["Sparkle", "/updates/stable/appcast.xml"],
  ["Sparkle (every channel, betas tagged)", "/updates/all/appcast.xml"],
  ["Velopack (SimpleWebSource; channels win, osx, win-beta, osx-beta)", "/updates/velopack"],
] as const;
