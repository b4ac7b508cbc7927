export type { Projection } from './projection';
export * from './readModels';
export * from './runner';
