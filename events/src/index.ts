export * from './companies/events';
export * from './customers/events';
export * from './errors';
export * from './eventStore';
export * from './integration';
export * from './payments/events';
export * from './streams';
export * from './users/events';
