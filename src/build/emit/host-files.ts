// The build's configuration files for hosts (Netlify and Cloudflare Pages, nginx): the hosts
// that read them never serve them, so neither does `ir-site serve`, and a link to one leads nowhere.
import { NETLIFY_HEADERS_FILE, NGINX_HEADERS_FILE } from './host-headers.js';
import { NETLIFY_REDIRECTS_FILE, NGINX_REDIRECTS_FILE } from './host-redirects.js';

/** Their site paths: `/_headers`, `/_redirects`, `/nginx-headers.conf`, `/nginx-redirects.conf`. */
export const HOST_FILES: ReadonlySet<string> = new Set([NETLIFY_HEADERS_FILE, NETLIFY_REDIRECTS_FILE, NGINX_HEADERS_FILE, NGINX_REDIRECTS_FILE].map((f) => `/${f}`));
