import pkg from '../../../package.json' with { type: 'json' };

export const PACKAGE_VERSION: string = pkg.version;
/**
 * Sent with every request so the service can tell this client apart. A product token cannot
 * hold `/`, so the scoped name `@sauce-actions/api` is written `sauce-actions-api`.
 */
export const USER_AGENT = `${pkg.name.replace(/^@/, '').replace(/\//g, '-')}/${pkg.version} node/${process.versions.node}`;
