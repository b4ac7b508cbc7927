export * from './broker';
export * from './consumer';
export * from './storeFixture';
