// node-polyglot (react-admin's translator) requires the `object.entries` polyfill, which brings
// es-abstract's intrinsics (about 4 KB gzip) into the first screen. Every browser the portal
// supports has Object.entries; Vite resolves the package to this instead (vite.config.ts).
// CommonJS, as the polyfill it replaces: polyglot calls what `require` returns.
module.exports = Object.entries;
