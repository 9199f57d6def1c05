/**
 * Where every feed points a client for a release's file: /releases/{version}/{file}, the route
 * that counts, serves byte ranges and redirects to S3. Root-relative without a site URL
 * (electron-updater resolves it against the feed); absolute with one (Sparkle, Tauri).
 */
export function releaseFileUrl(version: string, fileName: string, siteUrl = ""): string {
  return `${siteUrl}/releases/${encodeURIComponent(version)}/${encodeURIComponent(fileName)}`;
}
