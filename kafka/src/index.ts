export { createIdempotentProducer, createKafka } from './client';
export { type LaneRequests, ProducerLanes, produceRequests, sendRequests } from './lanes';
export { partitionOfKey } from './partitioner';
export * from './publisher';
export * from './republish';
export type { KafkaSettings } from './settings';
export * from './tail';
export { ensureTopics } from './topics';
