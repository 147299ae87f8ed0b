// The tool fingerprint's dependency part: each dependency in package.json with the version
// installed where Node would find it (a nearer node_modules first), so that upgrading a package
// changes the fingerprint and every cache entry made with the old one is a miss.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, test } from 'node:test';
import { dependencyVersions, installedTree, toolFingerprint } from '../../src/incremental/fingerprint.js';

const dir = await mkdtemp(path.join(os.tmpdir(), 'fingerprint-'));
after(() => rm(dir, { recursive: true, force: true }));

const put = async (file: string, value: unknown) => {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value));
};

test('dependency versions: as installed, the nearest install first, "missing" when none', async () => {
  const root = path.join(dir, 'project', 'node_modules', 'ir-site');
  await put(path.join(root, 'package.json'), { name: 'ir-site', dependencies: { sharp: '^0.35.0', yaml: '^2.0.0', gone: '^1.0.0' } });
  await put(path.join(dir, 'project', 'node_modules', 'sharp', 'package.json'), { name: 'sharp', version: '0.35.1' });
  await put(path.join(dir, 'project', 'node_modules', 'yaml', 'package.json'), { name: 'yaml', version: '2.8.0' });
  await put(path.join(root, 'node_modules', 'yaml', 'package.json'), { name: 'yaml', version: '2.9.0' });
  assert.deepEqual(dependencyVersions(root), [
    ['gone', 'missing'],
    ['sharp', '0.35.1'],
    ['yaml', '2.9.0'],
  ]);
  await put(path.join(dir, 'project', 'node_modules', 'sharp', 'package.json'), { name: 'sharp', version: '0.35.2' });
  assert.deepEqual(dependencyVersions(root)[1], ['sharp', '0.35.2']);
});

test('the installed tree: npm\'s record in the nearest node_modules, so an indirect dependency\'s update counts; null without one', async () => {
  const project = path.join(dir, 'tree');
  const root = path.join(project, 'node_modules', 'ir-site');
  await put(path.join(root, 'package.json'), { name: 'ir-site' });
  assert.equal(installedTree(root), null);
  const record = path.join(project, 'node_modules', '.package-lock.json');
  await put(record, { packages: { 'node_modules/mdast-util-to-hast': { version: '13.2.0' } } });
  const before = installedTree(root);
  assert.match(before ?? '', /^[0-9a-f]{64}$/);
  await put(record, { packages: { 'node_modules/mdast-util-to-hast': { version: '13.2.1' } } });
  assert.notEqual(installedTree(root), before);
});

test('the fingerprint of this ir-site is stable within a process', () => {
  assert.match(toolFingerprint(), /^[0-9a-f]{20}$/);
  assert.equal(toolFingerprint(), toolFingerprint());
});
