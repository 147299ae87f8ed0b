// `serve` sends the headers of the folder's `_headers` file (written by the build, in the
// format Netlify and Cloudflare Pages read: src/build/emit/host-headers.ts), as those hosts do: every
// rule whose path matches applies, and the values of one header from several rules are joined
// with ", " (two Content-Security-Policy values are two policies, both enforced). A path is
// exact, or ends in `*` to match everything under it.
import { validateHeaderName, validateHeaderValue } from 'node:http';

export interface HeaderRule {
  /** Decoded path, without a trailing `*`. */
  path: string;
  prefix: boolean;
  headers: Array<[name: string, value: string]>;
}


const isSendable = (name: string, value: string): boolean => {
  try {
    validateHeaderName(name);
    validateHeaderValue(name, value);
    return true;
  } catch {
    return false;
  }
};

const decode = (p: string) => {
  try {
    return decodeURI(p);
  } catch {
    return p;
  }
};

export function parseHeaders(text: string): HeaderRule[] {
  const rules: HeaderRule[] = [];
  let current: HeaderRule | null = null;
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '' || line.trimStart().startsWith('#')) continue;
    if (!/^\s/.test(line)) {
      const raw = line.trim();
      const prefix = raw.endsWith('*');
      current = { path: decode(prefix ? raw.slice(0, -1) : raw), prefix, headers: [] };
      rules.push(current);
      continue;
    }
    const colon = line.indexOf(':');
    if (!current || colon < 0) continue;
    const [name, value] = [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
    // A line no response can carry (a space in the name, a control character in the value) is
    // left out, as the hosts leave it out: sent, it failed every answer the rule matched.
    if (isSendable(name, value)) current.headers.push([name, value]);
  }
  return rules;
}

/** The headers for a site path (decoded), from every rule that matches it. */
export function headersFor(rules: readonly HeaderRule[], sitePath: string): Record<string, string> {
  const out: Record<string, string> = {};
  const names: Record<string, string> = {};
  for (const rule of rules) {
    if (rule.prefix ? !sitePath.startsWith(rule.path) : sitePath !== rule.path) continue;
    for (const [name, value] of rule.headers) {
      const key = name.toLowerCase();
      const as = (names[key] ??= name);
      out[as] = out[as] === undefined ? value : `${out[as]}, ${value}`;
    }
  }
  return out;
}
