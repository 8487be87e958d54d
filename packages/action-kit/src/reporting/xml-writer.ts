/**
 * The XML writer, in a module of its own that the JUnit report loads on first use. xmlbuilder2 is
 * CommonJS marked `__esModule`: imported directly, its default export is the module under Node
 * but undefined under tsx, and a bundle chunk of it has only that default. Re-exported by name
 * from this ES module, `create` is the same function under Node, tsx, vitest and in the bundles.
 */
export { create } from 'xmlbuilder2';
