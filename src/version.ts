// The ir-site version, read once from package.json.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PACKAGE_ROOT } from './package-root.js';

export const VERSION: string = (JSON.parse(readFileSync(path.join(PACKAGE_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
