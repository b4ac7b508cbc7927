export * from './companies/events';
export * from './errors';
export * from './eventStore';
export * from './streams';
export * from './users/events';
