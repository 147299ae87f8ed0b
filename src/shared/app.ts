// The React tree inside `#___gatsby`, the same on the server and in the browser so
// hydration matches: a focusable wrapper (focus lands there after a navigation) around
// the page template.
import { createElement, type ComponentType, type ReactElement } from 'react';
import { FOCUS_WRAPPER_ID } from './dom-ids.js';
import type { TemplateProps } from './types.js';

export function appElement(Template: ComponentType<TemplateProps<any>>, props: TemplateProps): ReactElement {
  return createElement('div', { id: FOCUS_WRAPPER_ID, tabIndex: -1 }, createElement(Template, props));
}
