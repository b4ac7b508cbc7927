/** Where and how to publish; `api/src/config.ts` builds it from the KAFKA_* variables. */
export interface KafkaSettings {
  brokers: readonly string[];
  clientId: string;
  /** Topics are `<prefix>.<category>.v<N>`, e.g. `issuer.companies.v1`. */
  topicPrefix: string;
  /** For topics the publisher creates; existing topics are left as they are. */
  topicPartitions: number;
  replicationFactor: number;
  /**
   * Producers the publisher sends over side by side, each owning a share of the partitions
   * (KAFKA_PRODUCER_LANES; 1 when absent). On a broker that answers in a millisecond more lanes
   * only cost CPU; they hide a slower broker's acknowledgements (README "Kafka").
   */
  producerLanes?: number;
}
