// stylis ships no types (and @types/stylis is not installed): the one export the RTL cache uses.
declare module 'stylis' {
  export type Middleware = import('@emotion/cache').StylisPlugin;
  export const prefixer: Middleware;
}
