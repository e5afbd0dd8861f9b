package io.symbolicate.symbolication.signature;

import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.signatures.SignatureGenerator;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.signatures.SignatureResult;
import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Puts the crash signature on a symbolicated event: a pure step (no I/O) that the platform
 * steps' output passes through, and that {@code reprocess --signatures-only} runs alone.
 * Thread-safe: one per topology, shared by its stream threads.
 */
public final class EventSigner {
  private static final Logger LOG = LoggerFactory.getLogger(EventSigner.class);

  private final SignatureGenerator generator;

  public EventSigner(SignatureLists lists) {
    this.generator = new SignatureGenerator(lists);
  }

  /** The signature of the event's frames. */
  public SignatureResult signatureOf(SymbolicatedEvent event) {
    return generator.generateWithoutDebugLog(CrashDataMapper.map(event));
  }

  /**
   * The event with its signature fields set (in place: the event is the step's own output).
   * Never throws for an event the platform steps made: a mapping that fails on odd data leaves
   * no signature and a note saying why, so the event is still written.
   */
  public SymbolicatedEvent sign(SymbolicatedEvent event) {
    if (event == null) {
      return null;
    }
    try {
      SignatureResult r = signatureOf(event);
      event.setSignature(r.signature());
      event.setProtoSignature(r.protoSignature());
      event.setSignatureNotes(r.notes());
    } catch (RuntimeException e) {
      LOG.warn("signing event {} failed", event.getEvent().getEventId(), e);
      event.setSignature(null);
      event.setProtoSignature(null);
      event.setSignatureNotes(List.of("signature not computed: " + e));
    }
    return event;
  }
}
