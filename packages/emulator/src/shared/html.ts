/** Escaping for the few HTML pages the emulator answers (the dashboard, mobile landing pages). */

/** Escapes text for HTML content and quoted attribute values. */
export function escapeHtml(value: unknown): string {
  return String(value).replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}
