package io.symbolicate.analytics;

import io.symbolicate.analytics.count.CellCountProcessor;
import io.symbolicate.analytics.count.Delta;
import io.symbolicate.analytics.count.EventTableProcessor;
import io.symbolicate.schema.topic.Topics;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.Topology;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Named;
import org.apache.kafka.streams.kstream.Repartitioned;
import org.apache.kafka.streams.state.Stores;

/**
 * The top-crashers aggregation, built by a pure function of its configuration (no I/O), so
 * tests build what production runs.
 *
 * <pre>
 * crash-events.symbolicated ─► event table (by event id: duplicates dropped, moves as -1/+1)
 *   ─► repartition by release ─► counts per release, hour, platform, signature
 *                                 + the events of each count + each signature's hours
 * </pre>
 *
 * All four stores are persistent and changelogged; a wall-clock punctuator purges hours older
 * than the retention.
 */
public final class TopCrashersTopology {
  private TopCrashersTopology() {}

  public static Topology build(AnalyticsConfig cfg) {
    StreamsBuilder b = new StreamsBuilder();
    build(b, cfg);
    return b.build();
  }

  public static void build(StreamsBuilder builder, AnalyticsConfig cfg) {
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(AnalyticsStores.EVENTS),
            Serdes.Bytes(),
            Serdes.ByteArray()));
    // counts change many times per commit for a hot signature: the cache folds them into one write
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(AnalyticsStores.CELLS),
                Serdes.Bytes(),
                Serdes.ByteArray())
            .withCachingEnabled());
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
            Stores.persistentKeyValueStore(AnalyticsStores.CELL_EVENTS),
            Serdes.Bytes(),
            Serdes.ByteArray()));
    builder.addStateStore(
        Stores.keyValueStoreBuilder(
                Stores.persistentKeyValueStore(AnalyticsStores.SIGNATURE_HOURS),
                Serdes.Bytes(),
                Serdes.ByteArray())
            .withCachingEnabled());

    builder.stream(
            cfg.symbolicatedTopic(),
            Consumed.with(Topics.SYMBOLICATED.keys(), Topics.SYMBOLICATED.values())
                .withName("topcrashers-source"))
        .process(
            () -> new EventTableProcessor(cfg.window(), AnalyticsStores.EVENTS),
            Named.as("topcrashers-event-table"),
            AnalyticsStores.EVENTS)
        .repartition(
            Repartitioned.with(Serdes.String(), Delta.serde()).withName(AnalyticsStores.BY_RELEASE))
        .process(
            () ->
                new CellCountProcessor(
                    cfg.window(),
                    AnalyticsStores.CELLS,
                    AnalyticsStores.CELL_EVENTS,
                    AnalyticsStores.SIGNATURE_HOURS),
            Named.as("topcrashers-count"),
            AnalyticsStores.CELLS,
            AnalyticsStores.CELL_EVENTS,
            AnalyticsStores.SIGNATURE_HOURS);
  }
}
