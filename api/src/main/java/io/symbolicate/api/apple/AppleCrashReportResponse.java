package io.symbolicate.api.apple;

import static io.symbolicate.api.sentry.SymbolicatorNative.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.Json;
import io.symbolicate.api.sentry.SymbolicatorNative;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.apple.AppleCrashReport;
import io.symbolicate.symbols.apple.AppleFrame;
import io.symbolicate.symbols.apple.AppleNativeConverter;
import io.symbolicate.symbols.apple.NativeCrash;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.math.BigInteger;
import java.util.Map;

/**
 * Symbolicator's answer to {@code /applecrashreport} ({@code CompletedSymbolicationResponse}):
 * {@code status}, {@code timestamp}, {@code system_info}, {@code crashed}, {@code crash_reason},
 * {@code crash_details}, {@code stacktraces} (one per thread: {@code thread_id},
 * {@code thread_name}, {@code is_requesting}, the crashed thread's {@code registers},
 * {@code frames}) and {@code modules}, with its names, forms and figures: a module's
 * {@code debug_id} is the UUID, its {@code debug_file} the path, its {@code image_size} one less
 * than the image spans (apple-crash-report-parser's figure), its {@code arch} {@code unknown}; a
 * frame outside every image keeps the module name of its line as {@code package}.
 */
final class AppleCrashReportResponse {
  private AppleCrashReportResponse() {}

  /** Our module result message for a module the request's deadline passed before it loaded. */
  private static final String NOT_LOADED = "symbols were not loaded in time";

  static JsonNode render(AppleCrashReport report, SymbolicatedEvent result, SymbolLookup lookup) {
    NativeCrash crash = AppleNativeConverter.convert(report);
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("status", "completed");
    if (crash.timestampSeconds() != null) {
      root.put("timestamp", crash.timestampSeconds());
    }
    NativeCrash.SystemInfo sys = crash.systemInfo();
    ObjectNode si = root.putObject("system_info");
    si.put("os_name", orEmpty(sys.osName()));
    si.put("os_version", orEmpty(sys.osVersion()));
    si.put("os_build", orEmpty(sys.osBuild()));
    si.put("cpu_arch", orEmpty(sys.cpuArch()));
    si.put("device_model", orEmpty(sys.deviceModel()));
    root.put("crashed", report.crashedThread() != null);
    if (crash.crashReason() != null) {
      root.put("crash_reason", crash.crashReason());
    }
    if (crash.crashDetails() != null) {
      root.put("crash_details", crash.crashDetails());
    }
    CallerAdjust adjust =
        crash.arch() == null ? CallerAdjust.NONE : CallerAdjust.forArch(crash.arch());
    ArrayNode stacks = root.putArray("stacktraces");
    for (SymbolicatedStack stack : result.getStacks()) {
      if (stack.getKind() != StackKind.thread) {
        continue;
      }
      NativeCrash.Thread thread = crash.threads().get(stack.getIndex());
      ObjectNode st = stacks.addObject();
      st.put("thread_id", thread.id());
      if (thread.name() != null) {
        st.put("thread_name", thread.name());
      }
      st.put("is_requesting", thread.crashed());
      if (thread.registers() != null) {
        ObjectNode regs = st.putObject("registers");
        for (Map.Entry<String, Long> r : thread.registers().entrySet()) {
          regs.put(r.getKey(), hex(r.getValue()));
        }
      }
      ArrayNode frames = st.putArray("frames");
      for (SymbolicatedFrame f : stack.getFrames()) {
        int i = f.getOriginalIndex();
        frames.add(
            frame(
                f,
                thread.frames().get(i),
                report.threads().get(stack.getIndex()).frames().get(i),
                i,
                crash,
                adjust));
      }
    }
    ArrayNode modules = root.putArray("modules");
    for (ModuleResult mr : result.getModules()) {
      NativeCrash.Module m = crash.modules().get(mr.getIndex());
      ObjectNode o = modules.addObject();
      String status =
          SymbolicatorNative.moduleStatus(mr.getStatus(), NOT_LOADED.equals(mr.getMessage()));
      o.put("debug_status", status);
      SymbolicatorNative.features(o, status.equals("found"), false);
      o.put(
          "arch",
          status.equals("found")
              ? arch(lookup, result.getEvent().getScope(), mr.getKey())
              : "unknown");
      o.put("type", m.type());
      o.put("code_id", m.codeId());
      o.put("code_file", m.codeFile());
      o.put("debug_id", m.uuid());
      o.put("debug_file", m.codeFile());
      o.put("image_addr", hex(m.imageAddr()));
      o.put("image_size", new BigInteger(Long.toUnsignedString(m.sentryImageSize())));
    }
    return root;
  }

  private static ObjectNode frame(
      SymbolicatedFrame f,
      NativeCrash.Frame in,
      AppleFrame parsed,
      int index,
      NativeCrash crash,
      CallerAdjust adjust) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    boolean symbolicated = f.getStatus() == FrameStatus.symbolicated;
    o.put("status", SymbolicatorNative.frameStatus(f.getStatus()));
    o.put("original_index", index);
    // a symbolicated caller shows the address looked up, inside its call (as Symbolicator does)
    boolean caller = index > 0 && !"context".equals(in.trust());
    long address =
        symbolicated && caller ? adjust.apply(in.instructionAddr()) : in.instructionAddr();
    o.put("instruction_addr", hex(address));
    String pkg =
        in.moduleIndex() >= 0 ? crash.modules().get(in.moduleIndex()).codeFile() : parsed.module();
    if (pkg != null) {
      o.put("package", pkg);
    }
    SymbolicatorNative.symbol(o, f, address);
    if (f.getFile() != null) {
      String file = f.getFile().toString();
      o.put("filename", SymbolicatorNative.basename(file));
      o.put("abs_path", file);
    }
    if (f.getLine() != null) {
      o.put("lineno", f.getLine());
    }
    return o;
  }

  /** A found module's CPU as its symbol file names it (Symbolicator shows the object's), else unknown. */
  private static String arch(SymbolLookup lookup, String scope, String key) {
    if (key == null) {
      return "unknown";
    }
    SymbolLookup.Resolution r = lookup.resolve(new ModuleRef(scope, TableKind.NATIVE, key));
    NativeHeader h = r.found() ? lookup.header(r, NativeHeader::decode) : null;
    return h == null || h.arch() == null || h.arch().isEmpty() ? "unknown" : h.arch();
  }

  private static String orEmpty(String s) {
    return s == null ? "" : s;
  }
}
