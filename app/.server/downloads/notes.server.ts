import { Marked } from "marked";

/**
 * Release notes are Markdown typed by an operator into the publish CLI. Raw HTML in them is shown
 * as text, never rendered, so a note cannot inject markup into the download page.
 */
const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const marked = new Marked({
  gfm: true,
  renderer: {
    html({ text }) {
      return escape(text);
    },
    link({ href, text }) {
      // Only web and mail links: no javascript: or data: URLs.
      return /^(https?:|mailto:|\/)/i.test(href)
        ? `<a href="${escape(href)}">${escape(text)}</a>`
        : escape(text);
    },
  },
});

export function renderReleaseNotes(markdown: string): string {
  return marked.parse(markdown, { async: false });
}
