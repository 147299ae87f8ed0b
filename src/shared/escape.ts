// Escaping for the document shell, which is assembled as text around React's output.

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

/** JSON safe inside `<script type="application/json">`: no `</script>`, no `<!--`. */
export function jsonForScript(value: unknown): string {
  return scriptSafe(JSON.stringify(value));
}

/** `jsonForScript` for JSON already serialised. */
export function scriptSafe(json: string): string {
  return json.replace(/</g, '\\u003c').replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
}
