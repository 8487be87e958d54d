/** Types of the parts of untyped packages the mobile interface uses. */
declare module '@devicefarmer/adbkit-apkreader/lib/apkreader/parser/manifest.js' {
  interface ParsedManifest {
    package?: string;
    versionCode?: number | string;
    versionName?: string;
    application?: { label?: string | number | null };
  }
  export default class ManifestParser {
    constructor(buffer: Buffer);
    parse(): ParsedManifest;
  }
}
