export * from './envelope';
export * from './publicEvents';
export * from './topics';
