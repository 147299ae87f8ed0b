// Templates live by convention at templates/pages/<id>.tsx with a default export. The
// server registry and the browser's lazy chunks are both generated from that one rule.
import path from 'node:path';
import { TEMPLATE_IDS } from '../../shared/template-ids.js';
import type { TemplateId } from '../../shared/types.js';

export const templateFile = (templatesDir: string, id: TemplateId) => path.join(templatesDir, 'pages', `${id}.tsx`);

/** `export const templates = { home: Home, ... }`, statically imported: for server rendering. */
export function serverRegistrySource(templatesDir: string): string {
  const imports = TEMPLATE_IDS.map((id, i) => `import T${i} from ${JSON.stringify(templateFile(templatesDir, id))};`);
  const entries = TEMPLATE_IDS.map((id, i) => `${JSON.stringify(id)}: T${i}`);
  return `${imports.join('\n')}\nexport const templates = { ${entries.join(', ')} };\n`;
}
