package io.symbolicate.app.reprocess;

import static io.symbolicate.app.reprocess.TopicScan.idHash;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.app.config.ConfigKeys;
import io.symbolicate.app.reprocess.PacedSends.Pacer;
import io.symbolicate.app.reprocess.TopicScan.Counts;
import io.symbolicate.app.reprocess.TopicScan.LatestOutputs;
import io.symbolicate.app.reprocess.TopicScan.Window;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.topology.config.TopologyConfig;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.LongPredicate;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * {@code reprocess --signatures-only}: signs the latest outputs of a time window again, without
 * any symbol lookup, after the signature lists changed, and writes back to {@code
 * topic.symbolicated} those whose signature changed (docs/signatures.md). Reads the topic twice,
 * as {@link ModuleReprocessing} does ({@link TopicScan}).
 */
public final class SignatureReprocessing {
  /**
   * What a signatures-only run found and did: output records read, undecodable ones, events
   * considered (their latest output in the window), those whose signature changed, written,
   * failed to write, too large for the output topic, and records lost to retention.
   */
  public record SignatureRun(
      long scanned,
      long undecodable,
      long events,
      long changed,
      long written,
      long failed,
      long tooLarge,
      long lost) {

    /** Every changed event was written (but those too large), and no record was lost to retention. */
    public boolean complete(boolean dryRun) {
      return lost == 0 && (dryRun || written + tooLarge == changed);
    }
  }

  private final AppConfig cfg;
  private final Consumer<String> progress;
  private final TopicScan reader;
  private final AvroSerde<SymbolicatedEvent> outputs = WireSerdes.symbolicatedEvent();

  /**
   * {@code progress} receives a line now and then during long scans (e.g. stderr). Refuses an
   * app whose input takes only JSON, as {@link ModuleReprocessing} does.
   */
  public SignatureReprocessing(AppConfig cfg, Consumer<String> progress) {
    ModuleReprocessing.requireAvroInput(cfg);
    this.cfg = cfg;
    this.progress = progress;
    this.reader = new TopicScan(cfg, progress);
  }

  /**
   * {@code reprocess --signatures-only}: signs again, with {@code signer}'s lists, the latest
   * output of every event timestamped in [{@code from}, {@code to}] (null: open), without any
   * symbol lookup, and writes those whose signature, proto signature or notes changed back to
   * {@code topic.symbolicated}, keyed by event id, with their output's timestamp. Consumers keep
   * the latest output of an event, so the new one replaces the old.
   */
  public SignatureRun resign(
      EventSigner signer, Instant from, Instant to, boolean dryRun, double maxPerSecond) {
    if (from != null && to != null && from.isAfter(to)) {
      throw new IllegalArgumentException("the time window ends before it starts");
    }
    Pacer pacer = new Pacer(maxPerSecond, System::nanoTime, TimeUnit.NANOSECONDS::sleep);
    String topic = cfg.get(ConfigKeys.TOPIC_SYMBOLICATED);
    LongPredicate inWindow =
        ts ->
            (from == null || ts >= from.toEpochMilli()) && (to == null || ts <= to.toEpochMilli());
    try (KafkaConsumer<byte[], byte[]> consumer = reader.consumer()) {
      List<TopicPartition> parts = reader.partitions(consumer, topic);
      Map<TopicPartition, Long> end = consumer.endOffsets(parts);
      Map<TopicPartition, Long> start = consumer.beginningOffsets(parts);
      long total = 0;
      for (TopicPartition tp : parts) {
        total += Math.max(0, end.get(tp) - start.get(tp));
      }
      // pass 1: where each event's latest output is (the whole topic: a later output outside the
      // window still makes an earlier one stale)
      LatestOutputs latest = new LatestOutputs();
      Counts counts = new Counts();
      reader.scan(
          consumer,
          start,
          end,
          total,
          "finding",
          reader.decoded(
              counts,
              (rec, out) -> {
                long id = idHash(out.getEvent().getEventId());
                if (inWindow.test(rec.timestamp())) {
                  latest.matched(id, rec.partition(), rec.offset());
                } else {
                  latest.cleared(id);
                }
              }),
          counts);
      long events = latest.candidates();
      if (events == 0) {
        return new SignatureRun(counts.read, counts.undecodable, 0, 0, 0, 0, 0, counts.lost);
      }

      // pass 2: each event's latest output, signed again; written only when that changed it
      Map<Integer, long[]> wanted = latest.offsetsByPartition();
      Window w2 = Window.of(parts, wanted);
      long[] changed = new long[1];
      long[] tooLarge = new long[1];
      PacedSends[] sends = new PacedSends[1];
      int maxOutputBytes = TopologyConfig.outputLimit(cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES));
      Counts counts2 = new Counts();
      try (KafkaProducer<byte[], byte[]> producer =
          dryRun ? null : PacedSends.producer(cfg, cfg.getInt(ConfigKeys.DLQ_MAX_MESSAGE_BYTES))) {
        sends[0] = producer == null ? null : new PacedSends(producer, pacer);
        reader.scan(
            consumer,
            w2.start(),
            w2.end(),
            w2.total(),
            "signing",
            rec -> {
              if (Arrays.binarySearch(wanted.get(rec.partition()), rec.offset()) < 0) {
                return;
              }
              SymbolicatedEvent out;
              try {
                out = outputs.decode(rec.value());
              } catch (Exception e) {
                return; // decoded in pass 1
              }
              String signature = out.getSignature();
              String proto = out.getProtoSignature();
              List<String> notes = List.copyOf(out.getSignatureNotes());
              signer.sign(out);
              if (Objects.equals(signature, out.getSignature())
                  && Objects.equals(proto, out.getProtoSignature())
                  && notes.equals(out.getSignatureNotes())) {
                return;
              }
              changed[0]++;
              if (dryRun) {
                return;
              }
              byte[] value = outputs.encode(out);
              if (value.length > maxOutputBytes) {
                tooLarge[0]++;
                return;
              }
              sends[0].send(
                  topic,
                  rec.timestamp(),
                  out.getEvent().getEventId().getBytes(StandardCharsets.UTF_8),
                  value);
            },
            counts2);
        if (producer != null) {
          producer.flush();
        }
      } catch (ReprocessException | KafkaException e) {
        throw new ReprocessException(
            (e instanceof KafkaException k ? reader.failed(k) : e).getMessage()
                + "; "
                + PacedSends.writtenSoFar(sends[0])
                + " event(s) were written before it stopped");
      }
      if (sends[0] != null && sends[0].firstFailure() != null) {
        progress.accept("first failure: " + sends[0].firstFailure());
      }
      return new SignatureRun(
          counts.read,
          counts.undecodable,
          events,
          changed[0],
          sends[0] == null ? 0 : sends[0].written(),
          sends[0] == null ? 0 : sends[0].failed(),
          tooLarge[0],
          counts.lost + counts2.lost);
    } catch (KafkaException e) {
      throw reader.failed(e);
    }
  }
}
