import pkg from '../../package.json' with { type: 'json' };

export const PACKAGE_NAME: string = pkg.name;
export const PACKAGE_VERSION: string = pkg.version;
/** Sent with every request so the service can tell this client apart. */
export const USER_AGENT = `${pkg.name.replace(/^@/, '')}/${pkg.version} node/${process.versions.node}`;
