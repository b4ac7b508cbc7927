export type { Projection } from './projection';
export * from './runner';
export * from './readModels';
