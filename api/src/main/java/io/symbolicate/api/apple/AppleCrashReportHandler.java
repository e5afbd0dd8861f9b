package io.symbolicate.api.apple;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.ApiSettings;
import io.symbolicate.api.ApiSymbolicator;
import io.symbolicate.api.Symbolication;
import io.symbolicate.api.sentry.SymbolicatorFileHandler;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.Platform;
import io.symbolicate.symbolication.apple.AppleReportEvents;
import io.symbolicate.symbols.apple.AppleCrashReport;
import io.symbolicate.symbols.apple.AppleCrashReportException;
import io.symbolicate.symbols.apple.AppleCrashReportParser;
import io.symbolicate.symbols.apple.AppleLimits;
import java.util.List;
import java.util.UUID;

/**
 * {@code POST /applecrashreport}, Symbolicator's endpoint for Apple crash reports: the
 * {@code apple_crash_report} part (a {@code .crash} or {@code .ips} file) becomes the same native
 * event the stream makes of it ({@link AppleReportEvents}), is symbolicated by the stream's
 * native step, and is answered in Symbolicator's shape ({@link AppleCrashReportResponse}).
 * docs/api/applecrashreport.md.
 */
public final class AppleCrashReportHandler extends SymbolicatorFileHandler {
  public static final String FILE_FIELD = "apple_crash_report";

  /** The report's own limit plus room for the other fields. */
  public static final long MAX_BODY_BYTES = AppleLimits.MAX_REPORT_BYTES + (2L << 20);

  public AppleCrashReportHandler(Symbolication shared) {
    this(shared, MAX_BODY_BYTES);
  }

  /** With another body limit (tests). */
  public AppleCrashReportHandler(Symbolication shared, long maxBodyBytes) {
    super(shared, FILE_FIELD, maxBodyBytes);
  }

  @Override
  protected JsonNode answer(
      byte[] file,
      String scope,
      long deadlineMillis,
      ApiSymbolicator symbolicator,
      ApiSettings settings)
      throws InterruptedException {
    AppleCrashReport report;
    try {
      report = AppleCrashReportParser.parse(file);
    } catch (AppleCrashReportException e) {
      throw badFile(e);
    }
    CrashEvent base =
        CrashEvent.newBuilder()
            .setEventId(UUID.randomUUID().toString())
            .setScope(scope)
            .setPlatform(Platform.native$)
            .setNative$(NativePayload.newBuilder().build())
            .build();
    CrashEvent event = AppleReportEvents.of(base, report);
    // the JSON endpoints' item limit (http.max.frames), counted on the report's event
    long frames = 0;
    for (var t : event.getNative$().getThreads()) {
      frames += t.getFrames().size();
    }
    long stacks = event.getNative$().getThreads().size();
    long modules = event.getNative$().getModules().size();
    if (ApiException.itemsOver(frames, stacks, modules, settings.maxFrames())) {
      throw ApiException.tooManyItems(frames, stacks, modules, settings.maxFrames());
    }
    ApiSymbolicator.Result r =
        symbolicator.symbolicate(List.of(event), deadlineMillis, settings.maxModules());
    return AppleCrashReportResponse.render(report, r.events().get(0), r.lookup());
  }
}
