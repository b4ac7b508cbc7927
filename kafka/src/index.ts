export { createAdmin, createConsumer, type KafkaConnection } from './client';
export { type ProduceRecord, ProducerLanes } from './lanes';
export * from './publisher';
export * from './republish';
export type { KafkaSettings } from './settings';
export * from './tail';
export { ensureTopics } from './topics';
