// The contact form of pages whose front matter says `form: contact`. Posts to the
// configured form endpoint; the bot check (when configured) attaches to `data-form`.
import type { SiteMetadata } from 'ir-site/templates';
import { t, type Strings } from '../lib/i18n.js';

function Required({ strings }: { strings: Strings }) {
  return <span className="field__required"> {t(strings, 'contact.form.required')}</span>;
}

export function ContactForm({ site, strings }: { site: SiteMetadata; strings: Strings }) {
  return (
    <section className="contact" aria-labelledby="contact-form-heading">
      <h2 id="contact-form-heading">{t(strings, 'contact.form.heading')}</h2>
      <form
        className="contact-form"
        method="post"
        action={site.integrations.botCheck.formAction || undefined}
        data-form="contact"
      >
        <div className="field">
          <label htmlFor="contact-name">
            {t(strings, 'contact.form.name')}
            <Required strings={strings} />
          </label>
          <input id="contact-name" name="name" type="text" autoComplete="name" required />
        </div>
        <div className="field">
          <label htmlFor="contact-email">
            {t(strings, 'contact.form.email')}
            <Required strings={strings} />
          </label>
          <input id="contact-email" name="email" type="email" autoComplete="email" required />
        </div>
        <div className="field">
          <label htmlFor="contact-message">
            {t(strings, 'contact.form.message')}
            <Required strings={strings} />
          </label>
          <textarea id="contact-message" name="message" rows={6} required />
        </div>
        <button type="submit" className="button">
          {t(strings, 'contact.form.submit')}
        </button>
      </form>
    </section>
  );
}
