// The share cards and a favicon with text are drawn with this machine's fonts, so their cache
// key holds a digest of the font folders: a font installed, replaced or removed changes it.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test } from 'node:test';
import { fontsDigest } from '../../src/files/installed-fonts.js';

test('the fonts digest changes when a font is installed, replaced or removed, and only then', async () => {
  const dir = await mkdtemp(path.join(tmpdir(), 'fonts-'));
  try {
    const folders = [path.join(dir, 'share'), path.join(dir, 'missing'), path.join(dir, 'conf')];
    await mkdir(path.join(folders[0]!, 'truetype', 'dejavu'), { recursive: true });
    await mkdir(folders[2]!, { recursive: true });
    const font = path.join(folders[0]!, 'truetype', 'dejavu', 'DejaVuSerif.ttf');
    await writeFile(font, 'glyphs');
    const first = fontsDigest(folders);
    assert.equal(fontsDigest(folders), first, 'the same fonts, the same digest');
    await writeFile(path.join(folders[0]!, 'truetype', 'Georgia.ttf'), 'other glyphs');
    const installed = fontsDigest(folders);
    assert.notEqual(installed, first, 'a font installed');
    await writeFile(font, 'new glyphs');
    await utimes(font, new Date(2020, 1, 1), new Date(2020, 1, 1));
    assert.notEqual(fontsDigest(folders), installed, 'a font replaced');
    await writeFile(path.join(folders[2]!, 'local.conf'), '<fontconfig/>');
    const configured = fontsDigest(folders);
    await rm(path.join(folders[0]!, 'truetype', 'Georgia.ttf'));
    assert.notEqual(fontsDigest(folders), configured, 'a font removed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
