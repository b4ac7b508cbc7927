export {
  createAdmin,
  createConsumer,
  createIdempotentProducer,
  type KafkaConnection,
  type StringConsumer,
  type StringProducer,
} from './client';
export {
  type LaneRequests,
  type ProduceRecord,
  ProducerLanes,
  produceRequests,
  sendRequests,
} from './lanes';
export { partitionOfKey } from './partitioner';
export * from './publisher';
export * from './republish';
export type { KafkaSettings } from './settings';
export * from './tail';
export { ensureTopics } from './topics';
