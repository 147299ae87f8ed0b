// Forms: a page that asks for the contact form while the site has no form target. The page
// then shows the contact e-mail instead (or nothing), so the build succeeds; this says why.
import { diagnostic } from '../../errors/diagnostic.js';
import type { Finding, CheckSite } from './model.js';

export function checkFormTarget(site: CheckSite, formAction: string, contactEmail: string): Finding[] {
  if (formAction) return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const route of site.routes.values()) {
    if (route.data.template !== 'page' || route.data.form !== 'contact' || !route.file || seen.has(route.file)) continue;
    seen.add(route.file);
    const fm = route.file.endsWith('.md') ? site.sources.frontMatter(route.file) : null;
    findings.push(
      diagnostic('site/no-form-target', {
        file: route.file,
        line: fm?.fieldLines['form'],
        field: 'form',
        page: route.path,
        message: contactEmail
          ? `${route.path} asks for the contact form, but the site has no form target: the page shows ${contactEmail} instead`
          : `${route.path} asks for the contact form, but the site has no form target and no contact e-mail: the page offers no way to write`,
      }),
    );
  }
  return findings;
}
