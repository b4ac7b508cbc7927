/** Where and how to publish; `api/src/config.ts` builds it from the KAFKA_* variables. */
export interface KafkaSettings {
  brokers: readonly string[];
  clientId: string;
  /** Topics are `<prefix>.<category>.v<N>`, e.g. `issuer.companies.v1`. */
  topicPrefix: string;
  /** For topics the publisher creates; existing topics are left as they are. */
  topicPartitions: number;
  replicationFactor: number;
  /** The publisher's producer lanes (KAFKA_PRODUCER_LANES); its own default when absent. */
  producerLanes?: number;
}
