// Sends a form in the page (the contact form, with JavaScript), with a fresh bot-check token
// when the site has a bot check. Called by the form's own submit handler; without JavaScript
// the same form posts as a plain HTML form and the endpoint sends the visitor to a thank-you page.
// Browser code that names no DOM type, so the templates' package (src/exports/templates.ts) can
// carry it and the runtime's integrations share it.

/** The field the bot-check token travels in (the endpoint verifies it). */
export const TOKEN_FIELD = 'bot-check-token';
/** How long a submit waits for a token before sending without one: the visitor is never stuck. */
export const TOKEN_WAIT = 5000;

interface BotCheckApi {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): PromiseLike<string>;
}

/**
 * A fresh token from the invisible bot check (they expire after minutes, so at submit time),
 * or null: no site key, the provider blocked, not loaded yet, failing, or slower than `wait` ms.
 */
export function botCheckToken(siteKey: string, wait = TOKEN_WAIT): Promise<string | null> {
  const api = (globalThis as { grecaptcha?: Partial<BotCheckApi> }).grecaptcha;
  if (!siteKey || typeof api?.execute !== 'function' || typeof api.ready !== 'function') return Promise.resolve(null);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), wait);
    const done = (token: unknown) => {
      clearTimeout(timer);
      resolve(typeof token === 'string' && token ? token : null);
    };
    try {
      api.ready!(() => {
        try {
          api.execute!(siteKey, { action: 'submit' }).then(done, () => done(null));
        } catch {
          done(null);
        }
      });
    } catch {
      done(null);
    }
  });
}

export interface SendFormOptions {
  /** The form endpoint (the form's `action`). */
  action: string;
  /** The bot check's site key; '' when the site has none. */
  siteKey: string;
}

/**
 * Posts the form's fields (`new FormData(form)`; files are left out) and the token to the endpoint as a URL-encoded body, asking for
 * JSON so the endpoint answers rather than redirects. True when the endpoint accepted it (2xx);
 * false on any other answer or a network failure, so the page can say so and keep the text.
 */
export async function sendForm(fields: Iterable<[string, unknown]>, { action, siteKey }: SendFormOptions): Promise<boolean> {
  const body = new URLSearchParams();
  for (const [name, value] of fields) if (typeof value === 'string') body.append(name, value);
  const token = await botCheckToken(siteKey);
  if (token) body.set(TOKEN_FIELD, token);
  try {
    // A simple CORS request (no preflight): the endpoint's answer is readable when it allows our origin.
    const response = await fetch(action, { method: 'POST', body, headers: { Accept: 'application/json' }, credentials: 'omit' });
    return response.ok;
  } catch {
    return false;
  }
}
