export * from './errors';
export * from './eventStore';
export * from './streams';
