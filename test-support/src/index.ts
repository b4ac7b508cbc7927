export * from './databases';
export * from './ports';
