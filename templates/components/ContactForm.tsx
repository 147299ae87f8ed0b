// The contact form of pages whose front matter says `form: contact`. Never a dead end:
// - with a form target (`integrations.botCheck.formAction`) and JavaScript, the form is sent in
//   the page (with the bot-check token) and says whether it went; on failure the text stays;
// - without JavaScript it is a plain POST, and the endpoint sends the visitor to the `_next`
//   thank-you page (built next to the form page, `sent/`);
// - with no target, the page shows the contact e-mail instead (and `ir-site check` warns).
// With JavaScript, a field left empty or not an e-mail address is said under it, in the page's
// language (the browser's own bubbles speak the browser's), and the first one gets the focus.
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { sendForm, type SiteMetadata } from 'ir-site/templates';
import { t, type Strings } from '../lib/i18n.js';
import { Text } from './Text.js';

/** What is wrong with a field, as the browser's constraint validation finds it. */
type Problem = 'missing' | 'notEmail';

const PROBLEM_TEXT: Record<Problem, string> = { missing: 'contact.form.error.missing', notEmail: 'contact.form.error.email' };

function problemOf(control: HTMLInputElement | HTMLTextAreaElement): Problem | null {
  if (control.validity.valueMissing) return 'missing';
  return control.validity.valid ? null : 'notEmail';
}

/** The attributes a field's control takes: its id, and what points at its error while it has one. */
type ControlProps = { id: string; 'aria-invalid'?: true; 'aria-describedby'?: string };

/** A required field: its label (the UI string `label`, marked required), its control, and what is wrong with it (shown at `errorId`). */
function Field({ strings, id, errorId, label, problem, control }: { strings: Strings; id: string; errorId: string; label: string; problem?: Problem; control: (props: ControlProps) => ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>
        {t(strings, label)}
        <span className="field__required"> {t(strings, 'contact.form.required')}</span>
      </label>
      {control(problem ? { id, 'aria-invalid': true, 'aria-describedby': errorId } : { id })}
      {problem && (
        <p id={errorId} className="field__error">
          {t(strings, PROBLEM_TEXT[problem])}
        </p>
      )}
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
  const [problems, setProblems] = useState<Record<string, Problem>>({});
  // The browser checks the fields until the page's script runs; then this form says what is wrong.
  const [checksItself, setChecksItself] = useState(false);
  useEffect(() => setChecksItself(true), []);

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
    const controls = [...form.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input[required], textarea[required]')];
    const found: Record<string, Problem> = {};
    for (const control of controls) {
      const problem = problemOf(control);
      if (problem) found[control.id] = problem;
    }
    setProblems(found);
    if (Object.keys(found).length > 0) {
      controls.find((c) => found[c.id])!.focus();
      setStatus('idle');
      return;
    }
    setStatus('sending');
    const sent = await sendForm(new FormData(form), { action, siteKey: site.integrations.botCheck.siteKey });
    if (sent) form.reset(); // only once it went: on failure the visitor's text stays for another try
    setStatus(sent ? 'sent' : 'failed');
  }

  // A field's error goes once what is in it is right.
  const recheck = (event: FormEvent<HTMLInputElement | HTMLTextAreaElement>) => {
    const { id } = event.currentTarget;
    if (problems[id] && !problemOf(event.currentTarget)) setProblems(({ [id]: _, ...rest }) => rest);
  };

  return (
    <section className="contact" aria-labelledby="contact-form-heading">
      <h2 id="contact-form-heading">{t(strings, 'contact.form.heading')}</h2>
      <form className="contact-form" method="post" action={action} data-form="contact" onSubmit={onSubmit} noValidate={checksItself}>
        {sentPath && <input type="hidden" name="_next" value={new URL(sentPath, `${site.siteUrl}/`).href} />}
        <Field strings={strings} id="contact-name" errorId="contact-name-error" label="contact.form.name" problem={problems['contact-name']} control={(props) => <input {...props} name="name" type="text" autoComplete="name" required onInput={recheck} />} />
        <Field strings={strings} id="contact-email" errorId="contact-email-error" label="contact.form.email" problem={problems['contact-email']} control={(props) => <input {...props} name="email" type="email" autoComplete="email" required onInput={recheck} />} />
        <Field strings={strings} id="contact-message" errorId="contact-message-error" label="contact.form.message" problem={problems['contact-message']} control={(props) => <textarea {...props} name="message" rows={6} required onInput={recheck} />} />
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
