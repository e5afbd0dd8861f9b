package io.symbolicate.analytics.query;

import io.symbolicate.analytics.AnalyticsStores;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyQueryMetadata;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsMetadata;
import org.apache.kafka.streams.TaskMetadata;
import org.apache.kafka.streams.ThreadMetadata;
import org.apache.kafka.streams.errors.InvalidStateStoreException;
import org.apache.kafka.streams.state.HostInfo;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyKeyValueStore;

/**
 * The aggregation's interactive queries: which instance ({@code application.server}) holds a
 * release's counts, which instances hold any, and this instance's own partitions' stores.
 */
public final class StreamsCounts {
  private final KafkaStreams streams;
  private final HostInfo self;

  public StreamsCounts(KafkaStreams streams, HostInfo self) {
    this.streams = streams;
    this.self = self;
  }

  public HostInfo self() {
    return self;
  }

  public boolean isSelf(HostInfo h) {
    return self.equals(h);
  }

  /** The instance whose active task counts {@code release} (the repartition's key). */
  public HostInfo hostOf(String release) throws CountsUnavailableException {
    KeyQueryMetadata m;
    try {
      m = streams.queryMetadataForKey(AnalyticsStores.CELLS, release, Serdes.String().serializer());
    } catch (IllegalStateException e) {
      throw new CountsUnavailableException("the aggregation is not running: " + e.getMessage(), e);
    }
    if (m == null || m == KeyQueryMetadata.NOT_AVAILABLE) {
      throw new CountsUnavailableException(
          "no instance holds the counts of this release yet (rebalancing)");
    }
    return m.activeHost();
  }

  /** Every instance that holds counts. */
  public Set<HostInfo> allHosts() throws CountsUnavailableException {
    Set<HostInfo> hosts = new LinkedHashSet<>();
    try {
      for (StreamsMetadata m : streams.streamsMetadataForStore(AnalyticsStores.CELLS)) {
        hosts.add(m.hostInfo());
      }
    } catch (IllegalStateException e) {
      throw new CountsUnavailableException("the aggregation is not running: " + e.getMessage(), e);
    }
    if (hosts.isEmpty()) {
      throw new CountsUnavailableException(
          "no instance holds counts yet (starting or rebalancing)");
    }
    return hosts;
  }

  /** The stores of the count partitions this instance's active tasks hold. */
  public List<PartitionStores> localPartitions() throws CountsUnavailableException {
    Set<Integer> partitions = new TreeSet<>();
    for (ThreadMetadata t : streams.metadataForLocalThreads()) {
      for (TaskMetadata task : t.activeTasks()) {
        for (TopicPartition tp : task.topicPartitions()) {
          if (tp.topic().endsWith(AnalyticsStores.BY_RELEASE + "-repartition")) {
            partitions.add(task.taskId().partition());
          }
        }
      }
    }
    List<PartitionStores> out = new ArrayList<>();
    try {
      for (int p : partitions) {
        out.add(
            new PartitionStores(
                store(AnalyticsStores.CELLS, p),
                store(AnalyticsStores.CELL_EVENTS, p),
                store(AnalyticsStores.SIGNATURE_HOURS, p)));
      }
    } catch (InvalidStateStoreException e) {
      throw new CountsUnavailableException(
          "the counts are not queryable now (" + e.getMessage() + ")", e);
    }
    return out;
  }

  private ReadOnlyKeyValueStore<Bytes, byte[]> store(String name, int partition) {
    return streams.store(
        StoreQueryParameters.fromNameAndType(
                name, QueryableStoreTypes.<Bytes, byte[]>keyValueStore())
            .withPartition(partition));
  }
}
