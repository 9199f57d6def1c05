/**
 * HTML compiled from our own Markdown at build time (vite/content-plugin.ts): trusted, free of
 * inline styles and scripts, with front matter kept out of it. `.prose-content` styles it
 * (app/styles/content.css).
 */
export function Prose({ html }: { html: string }) {
  return <div className="prose-content" dangerouslySetInnerHTML={{ __html: html }} />;
}
