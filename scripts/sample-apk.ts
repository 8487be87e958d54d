/**
 * `npm run sample-apk -- [file]`: writes the sample APK the `.env.example` of upload-build names
 * (Demo Shop 2.3.0, `com.example.shop`), by default `.tmp/app-release.apk`. An npm script, so that
 * it runs on the project's own Node whatever `node` comes first on the machine: the emulator's
 * sources are TypeScript, which an older Node cannot load. The file is relative to where the
 * command was typed.
 *
 * Usage: node scripts/sample-apk.ts [file]
 */
import path from 'node:path';
import { createSampleApk } from '@sauce-actions/emulator/samples';
import { ensureFolder } from '@sauce-actions/action-kit/reporting/output-files';

const DEFAULT_FILE = '.tmp/app-release.apk';

const args = process.argv.slice(2);
if (args.length > 1 || args[0]?.startsWith('-')) {
  console.error('Usage: npm run sample-apk -- [file]   (default: .tmp/app-release.apk)');
  process.exitCode = 2;
} else {
  // `npm run` starts scripts in the repository's root: the file is relative to where it was typed.
  const file = path.resolve(process.env.INIT_CWD ?? process.cwd(), args[0] ?? DEFAULT_FILE);
  await ensureFolder(path.dirname(file));
  await createSampleApk(file, {
    packageId: 'com.example.shop',
    name: 'Demo Shop',
    version: '2.3.0',
    versionCode: 230,
  });
  console.log(`Wrote the sample APK (Demo Shop 2.3.0, com.example.shop) to ${file}`);
}
