package io.symbolicate.api.nativecode;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import java.math.BigInteger;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Validation of Mozilla's jobs, with the reasons Mozilla's service gives ("job 0 has invalid
 * modules: module index 1 has an invalid debug_id"), and their translation to crash events of
 * the native step (frames as {@code module_index}/{@code module_offset}; one thread per stack).
 */
final class MozillaJobs {
  /** Mozilla's limit of jobs per request. */
  static final int MAX_JOBS = 10;

  // As Mozilla's service: debug ids are hex, debug file names a small ASCII set (no separators)
  private static final Pattern DEBUG_ID = Pattern.compile("[A-Fa-f0-9]*");
  private static final Pattern DEBUG_FILE = Pattern.compile("[A-Za-z0-9_.+{}@<> ~-]*");
  private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);

  private MozillaJobs() {}

  static boolean truthy(JsonNode n) {
    if (n == null || n.isNull() || n.isMissingNode()) {
      return false;
    }
    if (n.isBoolean()) {
      return n.booleanValue();
    }
    if (n.isNumber()) {
      return n.decimalValue().signum() != 0;
    }
    if (n.isTextual()) {
      return !n.textValue().isEmpty();
    }
    return n.size() > 0;
  }

  /**
   * Refuses jobs with more frames, more stacks or more memory-map entries than {@code limit}
   * ({@code http.max.frames}), each counted apart on the JSON before anything is built from
   * it: an empty stack is 3 bytes of body but a list in the request, the event and the answer.
   */
  static void checkSize(Iterable<JsonNode> jobs, int limit) {
    long frames = 0;
    long stacks = 0;
    long modules = 0;
    for (JsonNode job : jobs) {
      JsonNode mm = job.get("memoryMap");
      if (mm != null && mm.isArray()) {
        modules += mm.size();
      }
      JsonNode st = job.get("stacks");
      if (st != null && st.isArray()) {
        stacks += st.size();
        for (JsonNode stack : st) {
          frames += stack.isArray() ? stack.size() : 0;
        }
      }
    }
    if (ApiException.itemsOver(frames, stacks, modules, limit)) {
      throw ApiException.tooManyItems(frames, stacks, modules, limit);
    }
  }

  /**
   * One job. {@code lenientOffsets}: v4 echoes offsets that are not integers; v5 refuses them.
   */
  static MozillaRequest.Job job(JsonNode job, int i, boolean lenientOffsets) {
    if (job == null || !job.isObject()) {
      throw ApiException.badRequest("job " + i + " is invalid");
    }
    if (!job.has("stacks")) {
      throw ApiException.badRequest("job " + i + " is invalid: no stacks specified");
    }
    if (!job.has("memoryMap")) {
      throw ApiException.badRequest("job " + i + " is invalid: no memoryMap specified");
    }
    List<MozillaRequest.Module> modules = modules(job.get("memoryMap"), i);
    return new MozillaRequest.Job(
        modules, stacks(job.get("stacks"), modules.size(), i, lenientOffsets));
  }

  private static List<MozillaRequest.Module> modules(JsonNode mm, int job) {
    String prefix = "job " + job + " has invalid modules: ";
    if (!mm.isArray()) {
      throw ApiException.badRequest(prefix + "modules must be a list");
    }
    List<MozillaRequest.Module> out = new ArrayList<>(mm.size());
    for (int m = 0; m < mm.size(); m++) {
      JsonNode item = mm.get(m);
      if (!item.isArray() || item.size() != 2) {
        throw ApiException.badRequest(
            prefix + "module index " + m + " does not have a debug_filename and debug_id");
      }
      JsonNode file = item.get(0);
      JsonNode id = item.get(1);
      if (!file.isTextual()
          || !DEBUG_FILE.matcher(file.textValue()).matches()
          || file.textValue().equals(".")
          || file.textValue().equals("..")
          || file.textValue().length() > 255) {
        throw ApiException.badRequest(
            prefix + "module index " + m + " has an invalid debug_filename");
      }
      boolean fileId =
          SYMBFILE.equals(file.textValue())
              && id.isTextual()
              && FILE_ID.matcher(id.textValue()).matches();
      if (!fileId
          && (!id.isTextual()
              || !DEBUG_ID.matcher(id.textValue()).matches()
              || id.textValue().length() > 80)) {
        throw ApiException.badRequest(prefix + "module index " + m + " has an invalid debug_id");
      }
      out.add(new MozillaRequest.Module(file.textValue(), id.textValue()));
    }
    return out;
  }

  private static List<List<MozillaRequest.Frame>> stacks(
      JsonNode stacks, int modules, int job, boolean lenient) {
    String prefix = "job " + job + " has invalid stacks: ";
    if (!stacks.isArray()) {
      throw ApiException.badRequest(prefix + "stacks must be a list of lists");
    }
    if (stacks.isEmpty()) {
      throw ApiException.badRequest(prefix + "no stacks specified");
    }
    List<List<MozillaRequest.Frame>> out = new ArrayList<>(stacks.size());
    for (int s = 0; s < stacks.size(); s++) {
      JsonNode stack = stacks.get(s);
      if (!stack.isArray()) {
        throw ApiException.badRequest(prefix + "stack " + s + " is not a list");
      }
      List<MozillaRequest.Frame> frames = new ArrayList<>(stack.size());
      for (int f = 0; f < stack.size(); f++) {
        JsonNode frame = stack.get(f);
        String at = prefix + "stack " + s + " frame " + f;
        if (!frame.isArray() || frame.size() != 2) {
          throw ApiException.badRequest(at + " is not a list of two items");
        }
        JsonNode idx = frame.get(0);
        if (!idx.isIntegralNumber() || !idx.canConvertToInt()) {
          throw ApiException.badRequest(at + " has an invalid module_index");
        }
        int index = idx.intValue();
        if (index < -1 || index >= modules) {
          throw ApiException.badRequest(at + " has a module_index that isn't in modules");
        }
        JsonNode off = frame.get(1);
        if (off.isIntegralNumber()) {
          BigInteger v = off.bigIntegerValue();
          if (v.signum() < 0 && !v.equals(BigInteger.ONE.negate())) {
            throw ApiException.badRequest(at + " has an invalid module_offset (negative)");
          }
          if (v.compareTo(LONG_MAX) > 0) {
            throw ApiException.badRequest(at + " has an invalid module_offset (too large)");
          }
          frames.add(new MozillaRequest.Frame(index, v.longValue(), null));
        } else if (lenient && (off.isNumber() || off.isTextual())) {
          frames.add(
              new MozillaRequest.Frame(
                  index, 0, off.isTextual() ? off.textValue() : off.decimalValue().toString()));
        } else {
          throw ApiException.badRequest(at + " has an invalid module_offset");
        }
      }
      out.add(frames);
    }
    return out;
  }

  /** A memory-map entry {@code ["symbfile", "<FileID>"]} names an executable by its FileID. */
  static final String SYMBFILE = "symbfile";

  /** A FileID's text forms: 22 base64 or base64url characters, or 32 hex digits (checked again by FileId.parse). */
  static final Pattern FILE_ID = Pattern.compile("[A-Za-z0-9_+/-]{22}|[0-9A-Fa-f]{32}");

  /** The job as a native crash event: a module per memory-map entry, a thread per stack. */
  static CrashEvent event(MozillaRequest.Job job, String scope, int index) {
    List<NativeModule> modules = new ArrayList<>(job.memoryMap().size());
    for (MozillaRequest.Module m : job.memoryMap()) {
      if (SYMBFILE.equals(m.debugFile())) {
        // ["symbfile", "<FileID>"]: an executable known by its Elastic FileID; offsets are ELF
        // virtual addresses (docs/symbfile.md)
        modules.add(
            NativeModule.newBuilder()
                .setFileId(m.debugId().isEmpty() ? null : m.debugId())
                .build());
        continue;
      }
      modules.add(
          NativeModule.newBuilder()
              .setDebugFile(m.debugFile().isEmpty() ? null : m.debugFile())
              .setDebugId(m.debugId().isEmpty() ? null : m.debugId())
              .build());
    }
    List<NativeThread> threads = new ArrayList<>(job.stacks().size());
    long t = 0;
    for (List<MozillaRequest.Frame> stack : job.stacks()) {
      List<NativeFrame> frames = new ArrayList<>(stack.size());
      for (MozillaRequest.Frame f : stack) {
        // the API asks for each address as given (trust "context": no caller adjustment)
        frames.add(
            NativeFrame.newBuilder()
                .setModuleIndex(f.moduleIndex())
                .setModuleOffset(f.hasOffset() ? f.offset() : null)
                .setTrust("context")
                .build());
      }
      threads.add(NativeThread.newBuilder().setId(t++).setFrames(frames).build());
    }
    return CrashEvent.newBuilder()
        .setEventId("api-job-" + index)
        .setScope(scope)
        .setReceivedAt(Instant.now())
        .setPlatform(Platform.native$)
        .setAttributes(Map.of())
        .setNative$(
            NativePayload.newBuilder()
                .setArch(null)
                .setModules(modules)
                .setThreads(threads)
                .build())
        .build();
  }
}
