// The entry is only this: index.html's splash is painted first, then the app is fetched and
// started. Importing it statically ran React and react-admin before the first paint, so the
// splash came up only with them (first contentful paint 1.8 s under Lighthouse's mobile profile).
// The built page also requests this entry only after that paint (startAfterFirstPaint.js).
void import('./boot').then((boot) => boot.start());
