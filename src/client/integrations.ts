// Third-party integrations configured in `site.integrations` (RUNTIME.md "Analytics",
// SPEC.md §7): the hosted font kit and the invisible bot check on form pages. An empty
// key means the integration is absent: nothing loads. A blocked or failing script must
// never break the page: fonts fall back, forms post without a token.
import type { IntegrationsConfig, SiteMetadata } from '../shared/types.js';
import { botCheckToken, TOKEN_FIELD } from '../shared/form-submit.js';

export { TOKEN_FIELD };

export interface Integrations {
  /** Call after every render: (re)initialises the bot check on pages that have a form. */
  pageRendered(root: ParentNode): void;
}

/**
 * Adds an async script unless one with the same src is already there (boot twice, or the
 * server wrote it). Returns whether it added one. Load errors go to `onerror` only.
 */
export function loadScript(src: string, onload?: () => void, onerror?: () => void): boolean {
  if (document.querySelector(`script[src="${src}"]`)) return false;
  const script = document.createElement('script');
  script.src = src;
  script.async = true;
  script.onload = onload ?? null;
  script.onerror = onerror ?? null;
  document.head.append(script);
  return true;
}

type FontState = 'loading' | 'active' | 'inactive';

/** The font-loading state as Typekit's classes on <html>, so CSS can hide or swap text. */
function setFontState(state: FontState): void {
  const classes = document.documentElement.classList;
  classes.remove('wf-loading', 'wf-active', 'wf-inactive');
  classes.add(`wf-${state}`);
}

interface FontKitApi {
  load(config: { async: boolean; timeout: number; active(): void; inactive(): void }): void;
}

/** Typekit's embed snippet, with our timeouts; every path ends in `wf-active` or `wf-inactive`. */
function loadFontKit({ kitId, scriptTimeout, fontTimeout }: IntegrationsConfig['fontKit']): void {
  if (!kitId) return;
  // SPEC.md section 9: the script gets 5000 ms, then the fonts 3000 ms (or the kit's own value).
  const fontsWithin = fontTimeout || 3000;
  const inactive = () => setFontState('inactive');
  let timer = setTimeout(inactive, scriptTimeout || 5000);
  const settle = (state: FontState) => () => {
    clearTimeout(timer);
    setFontState(state);
  };
  const src = `https://use.typekit.net/${encodeURIComponent(kitId)}.js`;
  const added = loadScript(
    src,
    () => {
      // Like Typekit's snippet, a kit that arrives after the script timeout still loads its
      // fonts: text swaps late rather than never.
      clearTimeout(timer);
      timer = setTimeout(inactive, fontsWithin);
      try {
        (window as unknown as { Typekit: FontKitApi }).Typekit.load({
          async: true,
          timeout: fontsWithin,
          active: settle('active'),
          inactive: settle('inactive'),
        });
      } catch {
        settle('inactive')();
      }
    },
    settle('inactive'),
  );
  if (added) setFontState('loading');
  else clearTimeout(timer);
}

/**
 * Submit handler for a `form[data-form]` its template does not send itself (the contact form
 * does, see form-submit.ts): fetch a fresh token, put it in a hidden field, then post. Without
 * the provider (blocked, not loaded yet, failing, or too slow) the form posts as it is.
 */
function onSubmit(siteKey: string, busy: WeakSet<HTMLFormElement>, event: Event): void {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.matches('form[data-form]') || event.defaultPrevented) return;
  if (!(window as { grecaptcha?: unknown }).grecaptcha) return;
  event.preventDefault();
  if (busy.has(form)) return; // a second click while the token is on its way
  busy.add(form);
  void botCheckToken(siteKey).then((token) => {
    busy.delete(form);
    if (token) {
      let field = form.querySelector<HTMLInputElement>(`input[name="${TOKEN_FIELD}"]`);
      if (!field) {
        field = document.createElement('input');
        field.type = 'hidden';
        field.name = TOKEN_FIELD;
        form.append(field);
      }
      field.value = token;
    }
    // The prototype's submit: fires no second submit event (no loop) and works even when
    // a control named "submit" shadows form.submit. The clicked button's name is not sent:
    // our forms' buttons have none.
    HTMLFormElement.prototype.submit.call(form);
  });
}

/** Loads the provider once, on the first page with a form, and handles submits from then on. */
function botCheck(siteKey: string): (root: ParentNode) => void {
  let started = false;
  return (root) => {
    if (started || !siteKey || !root.querySelector('form[data-form]')) return;
    started = true;
    loadScript(`https://www.google.com/recaptcha/api.js?render=${encodeURIComponent(siteKey)}`);
    // One delegated listener serves every later form, whatever page renders it.
    const busy = new WeakSet<HTMLFormElement>();
    document.addEventListener('submit', (event) => onSubmit(siteKey, busy, event));
  };
}

export function createIntegrations(site: SiteMetadata): Integrations {
  loadFontKit(site.integrations.fontKit);
  return { pageRendered: botCheck(site.integrations.botCheck.siteKey) };
}
