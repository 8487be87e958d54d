#!/usr/bin/env node
/*
 * The command's entry. It is written so that any Node.js can read it (no `import`, no `const`),
 * because its one job before loading the bundle is to refuse a Node.js too old to run it: in one
 * line on standard error, one JSON object on standard output with --json, exit code 2.
 */
'use strict';

// The same as MINIMUM_NODE_MAJOR of the command line's host.
var MINIMUM_MAJOR = 22;
var fs = require('fs');
var path = require('path');
var url = require('url');

var major = Number(process.versions.node.split('.')[0]);
if (!(major >= MINIMUM_MAJOR)) {
  var message = [
    'sauce-actions needs Node.js ' +
      MINIMUM_MAJOR +
      ' or later, and this is Node.js ' +
      process.versions.node,
    ' (' + process.execPath + '). Install Node.js ' + MINIMUM_MAJOR + ' or later and run it again.',
  ].join('');
  process.stderr.write('error: ' + message + '\n');
  if (process.argv.slice(2).indexOf('--json') !== -1) {
    process.stdout.write(JSON.stringify({ error: { kind: 'usage', message: message } }) + '\n');
  }
  process.exitCode = 2;
} else {
  // The bundle is in the package (`dist/`); in a checkout of the repository it is the committed
  // one at the root.
  var bundle = path.join(__dirname, '..', 'dist', 'cli.js');
  if (!fs.existsSync(bundle)) bundle = path.join(__dirname, '..', '..', '..', 'dist', 'cli.js');
  // `import()` as text: a Node.js that cannot read it has been refused above.
  var load = new Function('specifier', 'return import(specifier)');
  load(url.pathToFileURL(bundle).href).catch(function (error) {
    process.stderr.write('error: sauce-actions could not start: ' + error.message + '\n');
    process.exitCode = 1;
  });
}
