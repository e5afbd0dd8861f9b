package io.symbolicate.topology.deadletter;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.DeadLetter;
import io.symbolicate.schema.ErrorKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.serde.AvroSerde;
import io.symbolicate.schema.serde.OutputTooLargeException;
import io.symbolicate.schema.serde.WireSerdes;
import io.symbolicate.topology.config.TopologyConfig;
import io.symbolicate.topology.metrics.PipelineMetrics;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.streams.errors.ErrorHandlerContext;
import org.apache.kafka.streams.errors.ProductionExceptionHandler;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sends a symbolicated event too large for the output topic to the DLQ as {@code too_large},
 * with the raw input record it came from, and goes on; every other production error fails the
 * task as Kafka Streams' default handler does. Configured by {@link SymbolicatorApp} with the
 * DLQ's name under {@link #DLQ_TOPIC}.
 */
public final class OversizedOutputHandler implements ProductionExceptionHandler {
  /** Streams property naming the dead-letter topic (the app sets it from topic.dlq). */
  public static final String DLQ_TOPIC = "symbolicator.dlq.topic";

  /** Streams property holding the app's {@link PipelineMetrics} (optional), which count the dead letters. */
  public static final String METRICS = "symbolicator.pipeline.metrics";

  /** Property: the most bytes a dead letter may encode to (the output limit; default the topology's). */
  public static final String MAX_BYTES = "symbolicator.dlq.max.bytes";

  private static final Logger log = LoggerFactory.getLogger(OversizedOutputHandler.class);

  private final AvroSerde<CrashEvent> events = WireSerdes.crashEvent();
  private final AvroSerde<DeadLetter> deadLetters = WireSerdes.deadLetter();
  private String dlqTopic;
  private int maxBytes = TopologyConfig.DEFAULT_MAX_OUTPUT_BYTES;
  private PipelineMetrics metrics = PipelineMetrics.NONE;

  @Override
  public void configure(Map<String, ?> configs) {
    Object t = configs.get(DLQ_TOPIC);
    if (t == null) {
      throw new IllegalArgumentException(DLQ_TOPIC + " is not set");
    }
    dlqTopic = t.toString();
    if (configs.get(MAX_BYTES) != null) {
      maxBytes = Integer.parseInt(configs.get(MAX_BYTES).toString());
    }
    if (configs.get(METRICS) instanceof PipelineMetrics m) {
      metrics = m;
    }
  }

  @Override
  public Response handleError(
      ErrorHandlerContext context, ProducerRecord<byte[], byte[]> record, Exception exception) {
    return Response.fail();
  }

  @Override
  public Response handleSerializationError(
      ErrorHandlerContext context,
      ProducerRecord record,
      Exception exception,
      SerializationExceptionOrigin origin) {
    if (!(exception instanceof OutputTooLargeException tooLarge)
        || !(record.value() instanceof SymbolicatedEvent out)) {
      return Response.fail();
    }
    String eventId = out.getEvent().getEventId();
    log.warn("event {}: {}; sending it to the DLQ", eventId, tooLarge.getMessage());
    metrics.deadLettered(ErrorKind.too_large);
    // the input record as it came; an event released from parking has none, but the parking
    // step checks those outputs itself (with the parked event's position), so this is a fallback
    byte[] original =
        context.sourceRawValue() != null ? context.sourceRawValue() : events.encode(out.getEvent());
    DeadLetter dead =
        DeadLetters.of(
            context.sourceRawKey(),
            original,
            context.topic(),
            context.partition(),
            context.offset(),
            ErrorKind.too_large,
            tooLarge.getMessage(),
            eventId,
            System.currentTimeMillis());
    return Response.resume(
        List.of(
            new ProducerRecord<>(
                dlqTopic,
                null,
                context.timestamp(),
                eventId.getBytes(StandardCharsets.UTF_8),
                DeadLetters.encodeFitting(dead, maxBytes, deadLetters))));
  }
}
