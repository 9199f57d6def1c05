import { Marked } from "marked";
import { escapeHtml } from "~/lib/escape";

/**
 * Release notes are Markdown typed by an operator into the publish CLI. Raw HTML in them is shown
 * as text, never rendered, so a note cannot inject markup into the download page.
 */

const marked = new Marked({
  gfm: true,
  renderer: {
    html({ text }) {
      return escapeHtml(text);
    },
    link({ href, text }) {
      // Only web and mail links: no javascript: or data: URLs.
      return /^(https?:|mailto:|\/)/i.test(href)
        ? `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`
        : escapeHtml(text);
    },
  },
});

export function renderReleaseNotes(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
