package io.symbolicate.app.cli;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.json.RecordJson;
import io.symbolicate.signatures.SignatureLists;
import io.symbolicate.symbolication.minidump.WalkedDumpEvent;
import io.symbolicate.symbolication.signature.EventSigner;
import io.symbolicate.symbols.id.DebugIdentifiers;
import io.symbolicate.symbols.minidump.Minidump;
import io.symbolicate.symbols.minidump.walk.ProcessState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;

/** {@code minidump walk --json}: the signed event the stream would emit for a walked dump. */
final class WalkedDumpJson {
  /** Signs as the stream signs its outputs, with the default frame lists; one per thread. */
  private static final ThreadLocal<EventSigner> SIGNER =
      ThreadLocal.withInitial(() -> new EventSigner(SignatureLists.defaults()));

  private WalkedDumpJson() {}

  static String write(Path dump, Minidump d, ProcessState state, String eventId)
      throws IOException {
    CrashEvent raw = rawEvent(eventId != null ? eventId : sha256(dump), state.cpu());
    SymbolicatedEvent event =
        WalkedDumpEvent.of(
            raw,
            state,
            d.modules() == null ? List.of() : d.modules(),
            d.crashpadInfo(),
            System.currentTimeMillis());
    return RecordJson.write(SIGNER.get().sign(event), true) + "\n";
  }

  /**
   * The raw event the dump came in as far as this command knows it: a native event of the
   * dump's architecture without frames (the stream's events will carry the dump by reference).
   */
  static CrashEvent rawEvent(String id, String arch) {
    return CrashEvent.newBuilder()
        .setEventId(id)
        .setScope(DebugIdentifiers.GLOBAL_SCOPE)
        .setReceivedAt(null)
        .setPlatform(Platform.native$)
        .setRelease(null)
        .setDist(null)
        .setAttributes(new HashMap<>())
        .setNative$(NativePayload.newBuilder().setArch(arch.isEmpty() ? null : arch).build())
        .setJavascript(null)
        .setJvm(null)
        .build();
  }

  static String sha256(Path file) throws IOException {
    try (var in = Files.newInputStream(file)) {
      MessageDigest md = MessageDigest.getInstance("SHA-256");
      byte[] buf = new byte[1 << 16];
      for (int n; (n = in.read(buf)) > 0; ) {
        md.update(buf, 0, n);
      }
      return HexFormat.of().formatHex(md.digest());
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is part of every JDK", e);
    }
  }
}
