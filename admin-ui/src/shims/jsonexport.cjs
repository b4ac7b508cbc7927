// react-admin's default CSV exporter calls jsonexport (about 2.3 KB gzip), which therefore loads with
// the first list, yet no list of the portal uses it: each sets `exporter={false}` and exports
// through the API's CSV routes. Vite resolves the package to this instead (vite.config.ts).
module.exports = () => {
  throw new Error("react-admin's default exporter is not used: the lists export through the API");
};
