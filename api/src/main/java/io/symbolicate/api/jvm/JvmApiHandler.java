package io.symbolicate.api.jvm;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.RequestStats;
import io.symbolicate.api.ShapeHandler;
import io.symbolicate.api.Symbolication;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmModule;
import io.symbolicate.schema.JvmPayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.jvm.JvmSymbolicator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * {@code POST /symbolicate-jvm}: Symbolicator's JVM (ProGuard/R8) request and response. The
 * request becomes one JVM {@link CrashEvent}: the request's exceptions first (type and module,
 * no frames), then one frame-only exception per stack trace, so the stream's
 * {@code JvmSymbolicator} remaps both; its result comes back as Symbolicator's
 * {@code exceptions}, {@code stacktraces} (caller first, inlined callees after their caller,
 * all with the input frame's {@code index}), {@code classes} and {@code errors}, plus our
 * per-frame {@code status}. The request's {@code source} modules (JVM source bundles) join the
 * event unless it says {@code apply_source_context: false}, so frames get context lines. See
 * docs/jvm.md, "HTTP endpoint".
 */
public final class JvmApiHandler extends ShapeHandler<JvmRequest> {
  public static final int DEFAULT_MAX_MODULES = 1_000;

  private final JvmRequestReader reader;

  /** At most {@code http.max.frames} frames and {@link #DEFAULT_MAX_MODULES} modules. */
  public JvmApiHandler(Symbolication shared) {
    this(shared, DEFAULT_MAX_MODULES);
  }

  public JvmApiHandler(Symbolication shared, int maxModules) {
    super(shared);
    this.reader = new JvmRequestReader(shared.settings().maxFrames(), maxModules);
  }

  @Override
  public JvmRequest parse(JsonNode body) {
    return reader.read(body);
  }

  @Override
  public List<CrashEvent> events(JvmRequest request, String scope) {
    List<JvmException> exceptions =
        new ArrayList<>(request.exceptions().size() + request.stacktraces().size());
    for (JvmRequest.ExceptionType x : request.exceptions()) {
      exceptions.add(new JvmException(x.type(), x.module(), null, new ArrayList<>()));
    }
    for (JvmRequest.Stacktrace s : request.stacktraces()) {
      List<JvmFrame> frames = new ArrayList<>(s.frames().size());
      for (JvmRequest.Frame f : s.frames()) {
        // Symbolicator finds a frame's source by its abs_path; the event has one file field
        String file = f.absPath() != null ? f.absPath() : f.filename();
        frames.add(new JvmFrame(f.module(), f.function(), f.lineno(), file));
      }
      exceptions.add(new JvmException(null, null, null, frames));
    }
    List<JvmModule> modules = new ArrayList<>(request.modules().size());
    for (JvmRequest.Module m : request.modules()) {
      modules.add(new JvmModule("proguard", m.uuid()));
    }
    if (request.applySourceContext()) {
      // without context the bundles are not even loaded
      for (String uuid : request.sourceBundles()) {
        modules.add(new JvmModule(JvmSymbolicator.SOURCE_MODULE, uuid));
      }
    }
    CrashEvent event =
        CrashEvent.newBuilder()
            .setEventId("http-jvm-" + UUID.randomUUID())
            .setScope(scope)
            .setPlatform(Platform.jvm)
            .setRelease(request.release())
            .setAttributes(Map.of("api", "symbolicate-jvm"))
            .setJvm(new JvmPayload(modules, exceptions, new ArrayList<>(request.classes())))
            .build();
    return List.of(event);
  }

  @Override
  public JsonNode render(JvmRequest request, List<SymbolicatedEvent> results, RequestStats stats) {
    if (results.size() != 1) {
      throw new ApiException(500, "expected one symbolicated event, got " + results.size());
    }
    return new JvmResponseWriter(request, results.get(0)).write();
  }
}
