// The web tests' DOM: jest-fixed-jsdom, with jsdom's selector engine keeping more compiled selectors.
//
// jsdom's getComputedStyle matches every CSS rule of the document against the element, and Testing
// Library's role queries and user-event's clicks call it for an element and its ancestors. Chakra's
// emotion adds a rule per style it meets, so a file of many tests ends with thousands of selectors,
// while nwsapi (jsdom's selector engine) keeps the last 1,000 compiled ones: past that, walking the
// rules in order recompiles every one of them on every call. DatasetPage.test.tsx took 55 s alone
// (85 s in CI, where a test passed its 5 s) and 21 s with room for them all. nwsapi has no setting
// for it, so its module is loaded here once, before jsdom, with a larger limit; if a new version
// no longer has the line, this fails loudly instead of silently slowing down again.
const fs = require('node:fs');
const Module = require('node:module');
const path = require('node:path');

const SELECTORS_KEPT = 50_000;

const jsdomDir = path.dirname(require.resolve('jsdom/package.json', { paths: [path.dirname(require.resolve('jest-environment-jsdom'))] }));
const nwsapiFile = require.resolve('nwsapi', { paths: [jsdomDir] });
if (!require.cache[nwsapiFile]) {
  const source = fs.readFileSync(nwsapiFile, 'utf8');
  const patched = source.replace('CACHE_LIMIT = 1000,', `CACHE_LIMIT = ${SELECTORS_KEPT},`);
  if (patched === source) throw new Error(`${nwsapiFile} has no "CACHE_LIMIT = 1000,": see src/test/jsdom-environment.cjs`);
  const loaded = new Module(nwsapiFile, module);
  loaded.filename = nwsapiFile;
  loaded.paths = Module._nodeModulePaths(path.dirname(nwsapiFile));
  loaded._compile(patched, nwsapiFile);
  loaded.loaded = true;
  require.cache[nwsapiFile] = loaded;
}

module.exports = require('jest-fixed-jsdom');
