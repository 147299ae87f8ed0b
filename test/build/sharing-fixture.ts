// The minimal fixture with a cover (fullWidth) and a body image (fixed) on the press release,
// a body image with no layout (constrained) on the commentary, an updated date and a title
// that tries to close a script element: for the build and browser tests of issue 20.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { writableFixture } from '../helpers.js';

export async function sharingFixture(name: string): Promise<string> {
  const root = await writableFixture('minimal', name);
  const press = path.join(root, 'content/articles/press-one/en.md');
  const text = await readFile(press, 'utf8');
  await writeFile(
    press,
    text
      .replace('title: Press one', 'title: "Press one </script><script>alert(1)</script>"')
      .replace('---\nPress body.', 'cover:\n  file: chart.png\n  alt: A returns chart\n  layout: fullWidth\nupdated: 2025-04-02\n---\nPress body.')
      .replace('](chart.png)', '](chart.png "fixed")'),
  );
  const commentary = path.join(root, 'content/articles/commentary-q2-2025/en.md');
  await writeFile(commentary, (await readFile(commentary, 'utf8')) + '\n![Constrained chart](chart.png)\n');
  await writeFile(path.join(root, 'content/articles/commentary-q2-2025/chart.png'), await readFile(path.join(root, 'content/articles/press-one/chart.png')));
  return root;
}

