// The contact form of pages whose front matter says `form: contact`. Never a dead end:
// - with a form target (`integrations.botCheck.formAction`) and JavaScript, the form is sent in
//   the page (with the bot-check token) and says whether it went; on failure the text stays;
// - without JavaScript it is a plain POST, and the endpoint sends the visitor to the `_next`
//   thank-you page (built next to the form page, `sent/`);
// - with no target, the page shows the contact e-mail instead (and `ir-site check` warns).
import { useState, type FormEvent, type ReactNode } from 'react';
import { sendForm, type SiteMetadata } from 'ir-site/templates';
import { t, type Strings } from '../lib/i18n.js';
import { Text } from './Text.js';

/** A required field: its label (the UI string `label`, marked required) and its control, whose id is `id`. */
function Field({ strings, id, label, children }: { strings: Strings; id: string; label: string; children: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {t(strings, label)}
        <span className="field__required"> {t(strings, 'contact.form.required')}</span>
      </label>
      {children}
    </div>
  );
}

type Status = 'idle' | 'sending' | 'sent' | 'failed';

export interface ContactFormProps {
  site: SiteMetadata;
  strings: Strings;
  /** The thank-you page a plain POST lands on (page data `sentPath`). */
  sentPath?: string;
}

function EmailLink({ email }: { email: string }) {
  return <a href={`mailto:${email}`}>{email}</a>;
}

export function ContactForm({ site, strings, sentPath }: ContactFormProps) {
  const action = site.integrations.botCheck.formAction;
  const email = site.contactEmail;
  const [status, setStatus] = useState<Status>('idle');

  if (!action) {
    if (!email) return null;
    return (
      <section className="contact" aria-labelledby="contact-form-heading">
        <h2 id="contact-form-heading">{t(strings, 'contact.email.heading')}</h2>
        <p className="contact__email">
          <Text strings={strings} k="contact.email.text" vars={{ email: <EmailLink email={email} /> }} />
        </p>
      </section>
    );
  }

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (status === 'sending') return;
    const form = event.currentTarget;
    setStatus('sending');
    const sent = await sendForm(new FormData(form), { action, siteKey: site.integrations.botCheck.siteKey });
    if (sent) form.reset(); // only once it went: on failure the visitor's text stays for another try
    setStatus(sent ? 'sent' : 'failed');
  }

  return (
    <section className="contact" aria-labelledby="contact-form-heading">
      <h2 id="contact-form-heading">{t(strings, 'contact.form.heading')}</h2>
      <form className="contact-form" method="post" action={action} data-form="contact" onSubmit={onSubmit}>
        {sentPath && <input type="hidden" name="_next" value={new URL(sentPath, `${site.siteUrl}/`).href} />}
        <Field strings={strings} id="contact-name" label="contact.form.name">
          <input id="contact-name" name="name" type="text" autoComplete="name" required />
        </Field>
        <Field strings={strings} id="contact-email" label="contact.form.email">
          <input id="contact-email" name="email" type="email" autoComplete="email" required />
        </Field>
        <Field strings={strings} id="contact-message" label="contact.form.message">
          <textarea id="contact-message" name="message" rows={6} required />
        </Field>
        {/* aria-disabled, not disabled: a disabled button drops the keyboard focus while sending (onSubmit ignores a second press). */}
        <button type="submit" className="button" aria-disabled={status === 'sending'}>
          {t(strings, status === 'sending' ? 'contact.form.sending' : 'contact.form.submit')}
        </button>
        {/* Always in the page, so screen readers announce what is written into it. */}
        <p className={`contact-form__status contact-form__status--${status}`} role="status" aria-live="polite">
          {status === 'sent' && t(strings, 'contact.form.sent')}
          {status === 'failed' &&
            (email ? (
              <Text strings={strings} k="contact.form.failedEmail" vars={{ email: <EmailLink email={email} /> }} />
            ) : (
              t(strings, 'contact.form.failed')
            ))}
        </p>
      </form>
    </section>
  );
}

/** The thank-you page a form posted without JavaScript lands on. */
export function ContactSent({ strings, formPath }: { strings: Strings; formPath?: string }) {
  return (
    <section className="contact contact--sent">
      <p>{t(strings, 'contact.sent.text')}</p>
      {formPath && (
        <p>
          <a href={formPath}>{t(strings, 'contact.sent.back')}</a>
        </p>
      )}
    </section>
  );
}
