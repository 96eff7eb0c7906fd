// Third-party notices for the bundle: every package esbuild put into dist/ is redistributed in it,
// and its license (MIT, ISC, BSD…) requires its copyright and license text to travel along.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const LICENSE_FILE = /^(licen[cs]e|copying)(\b|[.-])/i;

// The MIT license text, for a package that names MIT but ships no license file (yoga-layout).
const MIT_TEXT = `Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
associated documentation files (the "Software"), to deal in the Software without restriction,
including without limitation the rights to use, copy, modify, merge, publish, distribute,
sublicense, and/or sell copies of the Software, and to permit persons to whom the Software is
furnished to do so, subject to the following conditions:

The above copyright notice and this permission notice shall be included in all copies or
substantial portions of the Software.

THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT
NOT LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND
NONINFRINGEMENT. IN NO EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES
OR OTHER LIABILITY, WHETHER IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN
CONNECTION WITH THE SOFTWARE OR THE USE OR OTHER DEALINGS IN THE SOFTWARE.`;

/** The package directory (`node_modules/a/node_modules/@s/b`) of a bundled input path, if any. */
function packageDirOf(inputPath) {
  return /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(inputPath.replaceAll('\\', '/'))?.[1];
}

/** The copyright lines found in the package's bundled files, for a package without a license file. */
function copyrightLines(root, dir, inputs) {
  const lines = new Set();
  for (const input of inputs) {
    if (packageDirOf(input) !== dir) continue;
    for (const match of readFileSync(join(root, input), 'utf8').matchAll(/Copyright[^\n*]*/g)) {
      lines.add(match[0].trim());
    }
  }
  return [...lines];
}

/** The license text of one bundled package; throws when none can be found (the build must stop). */
function licenseText(root, dir, manifest, inputs) {
  const file = readdirSync(join(root, dir)).find((name) => LICENSE_FILE.test(name));
  if (file) return readFileSync(join(root, dir, file), 'utf8').trim();
  const copyrights = copyrightLines(root, dir, inputs);
  if (manifest.license === 'MIT' && copyrights.length > 0)
    return `MIT License\n\n${copyrights.join('\n')}\n\n${MIT_TEXT}`;
  throw new Error(`third-party notices: ${manifest.name} ships no license file; add its text to the build`);
}

/**
 * The notices text for an esbuild metafile: one section per bundled package (name, version,
 * license, full text), then the legal comments esbuild extracted from the code (`legalComments`).
 */
export function thirdPartyNotices(root, metafile, legalComments = '') {
  const inputs = Object.keys(metafile.inputs);
  const dirs = [...new Set(inputs.map(packageDirOf).filter(Boolean))];
  const sections = new Map();
  for (const dir of dirs) {
    const manifestPath = join(root, dir, 'package.json');
    if (!existsSync(manifestPath)) continue;
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
    const key = `${manifest.name}@${manifest.version}`;
    if (sections.has(key)) continue;
    const text = licenseText(root, dir, manifest, inputs);
    sections.set(key, `${key} (${manifest.license ?? 'see text'})\n${'-'.repeat(key.length)}\n\n${text}\n`);
  }
  const ordered = [...sections.keys()].sort().map((key) => sections.get(key));
  const header =
    'ochat bundles the following third-party packages into dist/. Their copyright notices and\n' +
    'license texts follow, as their licenses require.\n';
  const legal = legalComments.trim()
    ? `\n\n=== Legal comments from the bundled code ===\n\n${legalComments.trim()}\n`
    : '';
  return `${header}\n\n${ordered.join('\n\n')}${legal}`;
}
