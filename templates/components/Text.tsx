// A UI string whose `{placeholders}` are filled with React nodes (a <time>, a link...).
import { Fragment, type ReactNode } from 'react';
import type { Strings } from '../lib/i18n.js';

export interface TextProps {
  strings: Strings;
  /** The UI-string key; a missing key renders as the key itself. */
  k: string;
  vars: Record<string, ReactNode>;
}

export function Text({ strings, k, vars }: TextProps) {
  const template = strings[k] ?? k;
  const parts = template.split(/(\{\w+\})/);
  return (
    <>
      {parts.map((part, index) => {
        const name = /^\{(\w+)\}$/.exec(part)?.[1];
        if (name !== undefined && Object.prototype.hasOwnProperty.call(vars, name)) {
          return <Fragment key={index}>{vars[name]}</Fragment>;
        }
        return part === '' ? null : <Fragment key={index}>{part}</Fragment>;
      })}
    </>
  );
}
