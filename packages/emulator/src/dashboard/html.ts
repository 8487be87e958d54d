/** Minimal HTML for the dashboard pages: every value goes through `escapeHtml` before it is written. */
import { escapeHtml } from '../shared/html.ts';

/** A whole page; `title` is plain text, `body` is HTML built from escaped values. */
export function page(title: string, body: string): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8">',
    `<title>${escapeHtml(title)} · sauce-emulator</title>`,
    '<style>body{font-family:system-ui,sans-serif;margin:2rem;max-width:60rem}' +
      'th{text-align:left;padding-right:1rem;vertical-align:top}td,th{padding:.2rem .5rem}</style>',
    '</head>',
    '<body>',
    `<h1>${escapeHtml(title)}</h1>`,
    body,
    '<p><small>sauce-emulator: a local stand-in for the service; this page is read-only.</small></p>',
    '</body>',
    '</html>',
    '',
  ].join('\n');
}

/** A two-column table of labels and values; values are HTML (escape them, or build them with `link`). */
export function table(rows: [label: string, html: string][]): string {
  const body = rows.map(([label, html]) => `<tr><th>${escapeHtml(label)}</th><td>${html}</td></tr>`);
  return `<table>\n${body.join('\n')}\n</table>`;
}

/** A link; `href` is built from encoded path segments by the caller and escaped again here. */
export function link(href: string, text: string): string {
  return `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
}

/** A bulleted list of HTML items, or `empty` (plain text) when there are none. */
export function list(items: string[], empty: string): string {
  if (items.length === 0) return `<p>${escapeHtml(empty)}</p>`;
  return `<ul>\n${items.map((item) => `<li>${item}</li>`).join('\n')}\n</ul>`;
}

/** A time in milliseconds as ISO 8601 UTC, or a dash when it has not happened. */
export function time(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : escapeHtml(new Date(ms).toISOString());
}
