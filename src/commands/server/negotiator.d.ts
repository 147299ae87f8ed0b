// negotiator 1 ships no types, and @types/negotiator describes 0.6, which has no `preferred`.
declare module 'negotiator' {
  import type { IncomingHttpHeaders } from 'node:http';

  export default class Negotiator {
    constructor(request: { headers: IncomingHttpHeaders });
    /** The acceptable codings of `available`, best first; ties in quality go by `preferred`'s order. */
    encodings(available?: readonly string[], options?: { preferred?: readonly string[] }): string[];
  }
}
