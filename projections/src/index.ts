export type { Projection } from './projection';
