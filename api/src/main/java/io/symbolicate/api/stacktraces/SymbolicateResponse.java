package io.symbolicate.api.stacktraces;

import static io.symbolicate.api.sentry.SymbolicatorNative.hex;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.Json;
import io.symbolicate.api.sentry.SymbolicatorNative;
import io.symbolicate.connectors.loader.dotnet.DotnetTableConverter;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.connectors.source.SourceLinkResult;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.dotnet.DotnetPage;
import io.symbolicate.symbols.nativecode.CallerAdjust;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Symbolicator's {@code CompletedSymbolicationResponse} for {@code /symbolicate}: {@code status},
 * {@code stacktraces} (each with the request's {@code thread_id}, {@code thread_name}, {@code
 * is_requesting}, {@code registers} and the answered {@code frames}: a frame per input frame, its
 * inlined callers before it, innermost first, all with its {@code original_index}) and {@code
 * modules} with {@code debug_status} and {@code features}. Names and forms as Symbolicator writes
 * them: hex strings for addresses, its frame and module statuses, debug ids in Sentry's form.
 */
final class SymbolicateResponse {
  /** Our module result message for a module the request's deadline passed before it loaded. */
  private static final String NOT_LOADED = "symbols were not loaded in time";

  private final SymbolicateRequest request;
  private final SymbolicatedEvent result;
  private final SymbolLookup lookup;
  private final FrameContext context;
  private final FrameRouting routing;
  private final String scope;
  private final CallerAdjust adjust;
  private final DotnetFrames[] dotnet;
  private final String[] arch;

  /** Per .NET module index, the Source Link files fetched for its frames (by URL). */
  private Map<Integer, Map<String, SourceLinkResult>> links = Map.of();

  /** Each native module's resolution, resolved once when a frame or the module list needs it. */
  private final SymbolLookup.Resolution[] nativeModules;

  SymbolicateResponse(
      SymbolicateRequest request,
      SymbolicatedEvent result,
      SymbolLookup lookup,
      int contextLines,
      SourceLinkFetcher sourceLinks) {
    this.request = request;
    this.result = result;
    this.lookup = lookup;
    this.context =
        new FrameContext(request.applySourceContext() ? contextLines : 0, lookup, sourceLinks);
    this.routing = FrameRouting.of(request);
    this.scope = result.getEvent().getScope();
    String a = result.getEvent().getNative$().getArch();
    CallerAdjust c = CallerAdjust.NONE;
    try {
      c = a == null ? CallerAdjust.NONE : CallerAdjust.forArch(a);
    } catch (IllegalArgumentException e) {
      // a CPU we do not adjust for: looked up as given
    }
    this.adjust = c;
    int n = request.modules().size();
    this.dotnet = new DotnetFrames[n];
    this.arch = new String[n];
    this.nativeModules = new SymbolLookup.Resolution[n];
    for (int m = 0; m < n; m++) {
      if (routing.dotnetModuleUsed(m)) {
        dotnet[m] = DotnetFrames.resolve(lookup, DotnetFrames.ref(request.modules().get(m), scope));
      }
    }
  }

  JsonNode write() {
    ObjectNode root = Json.MAPPER.createObjectNode();
    root.put("status", "completed");
    if (request.signal() != null) {
      root.put("signal", request.signal());
    }
    ArrayNode stacks = root.putArray("stacktraces");
    List<SymbolicatedStack> answered = result.getStacks();
    for (int s = 0; s < request.stacktraces().size(); s++) {
      SymbolicateRequest.Stacktrace in = request.stacktraces().get(s);
      ObjectNode st = stacks.addObject();
      if (in.threadId() != null) {
        st.put("thread_id", in.threadId());
      }
      if (in.threadName() != null) {
        st.put("thread_name", in.threadName());
      }
      if (in.isRequesting() != null) {
        st.put("is_requesting", in.isRequesting());
      }
      if (!in.registers().isEmpty()) {
        ObjectNode regs = st.putObject("registers");
        for (Map.Entry<String, Long> r : in.registers().entrySet()) {
          regs.put(r.getKey(), hex(r.getValue()));
        }
      }
      List<List<SymbolicatedFrame>> byIndex = byOriginalIndex(answered.get(s), in.frames().size());
      ArrayNode frames = st.putArray("frames");
      for (int f = 0; f < in.frames().size(); f++) {
        SymbolicateRequest.Frame fr = in.frames().get(f);
        switch (routing.kind(s, f)) {
          case NATIVE -> nativeFrames(frames, fr, f, byIndex.get(f));
          case DOTNET -> frames.add(dotnetFrame(fr, f));
          case NO_IMAGE -> frames.add(raw(fr, f, "unknown_image", null));
        }
      }
    }
    // the Source Link files of frames without context, fetched at once, where allowed
    this.links = context.fetchLinks();
    ArrayNode modules = root.putArray("modules");
    for (ModuleResult mr : result.getModules()) {
      modules.add(module(mr));
    }
    return root;
  }

  private static List<List<SymbolicatedFrame>> byOriginalIndex(SymbolicatedStack stack, int n) {
    List<List<SymbolicatedFrame>> out = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      out.add(new ArrayList<>(1));
    }
    for (SymbolicatedFrame f : stack.getFrames()) {
      out.get(f.getOriginalIndex()).add(f);
    }
    return out;
  }

  /** The request's frame as sent, with its status: Symbolicator echoes a frame it cannot answer. */
  private ObjectNode raw(SymbolicateRequest.Frame fr, int index, String status, Integer module) {
    ObjectNode o = Json.MAPPER.createObjectNode();
    o.put("status", status);
    o.put("original_index", index);
    if (fr.relative()) {
      o.put("addr_mode", fr.addrMode());
    }
    o.put("instruction_addr", hex(fr.instructionAddr()));
    if (fr.functionId() != null) {
      o.put("function_id", hex(fr.functionId()));
    }
    String pkg = module == null ? null : request.modules().get(module).codeFile();
    if (pkg == null) {
      pkg = fr.packageName();
    }
    if (pkg != null) {
      o.put("package", pkg);
    }
    return o;
  }

  private void nativeFrames(
      ArrayNode out, SymbolicateRequest.Frame fr, int index, List<SymbolicatedFrame> answers) {
    for (SymbolicatedFrame f : answers) {
      Integer module = f.getModuleIndex();
      if (f.getStatus() != FrameStatus.symbolicated) {
        out.add(raw(fr, index, SymbolicatorNative.frameStatus(f.getStatus()), module));
        continue;
      }
      ObjectNode o = raw(fr, index, "symbolicated", module);
      // the address looked up: a caller's return address less the CPU's adjustment
      boolean caller = index > 0 && !Boolean.FALSE.equals(fr.adjust());
      long address = caller ? adjust.apply(fr.instructionAddr()) : fr.instructionAddr();
      o.put("instruction_addr", hex(address));
      SymbolicatorNative.symbol(o, f, address);
      String file = f.getFile() == null ? null : f.getFile().toString();
      if (file != null && !file.isEmpty()) {
        o.put("filename", SymbolicatorNative.basename(file));
        o.put("abs_path", file);
      }
      int line = f.getLine() == null ? 0 : f.getLine();
      o.put("lineno", line);
      context.apply(nativeModule(module), file, line, o);
      out.add(o);
    }
  }

  private ObjectNode dotnetFrame(SymbolicateRequest.Frame fr, int index) {
    DotnetFrames module = dotnet[fr.moduleIndex()];
    if (!module.found()) {
      return raw(fr, index, moduleFrameStatus(module), null);
    }
    Optional<DotnetPage.Line> line;
    try {
      line = module.lookup(fr.functionId(), fr.instructionAddr());
    } catch (RuntimeException e) {
      if (DotnetFrames.corrupt(e)) {
        return raw(fr, index, "malformed", null);
      }
      throw e;
    }
    if (line.isEmpty()) {
      return raw(fr, index, "missing_symbol", null);
    }
    DotnetPage.Line l = line.get();
    ObjectNode o = raw(fr, index, "symbolicated", null);
    if (l.language() != null && !l.language().equals("unknown")) {
      o.put("lang", l.language());
    }
    if (l.file() != null && !l.file().isEmpty()) {
      o.put("filename", SymbolicatorNative.basename(l.file()));
      o.put("abs_path", l.file());
    }
    o.put("lineno", l.line());
    // reported as Symbolicator reports it; fetched only where a Source Link rule allows it
    putIf(o, "source_link", l.sourceLink());
    if (!context.apply(module.resolution(), l.file(), l.line(), o) && l.sourceLink() != null) {
      context.link(fr.moduleIndex(), l.sourceLink(), l.line(), o);
    }
    return o;
  }

  /**
   * A frame of a module without a table: Symbolicator's frame status for the module's ({@code
   * missing} for an unsupported file, as its {@code dotnet_windows_pdb} snapshot answers).
   */
  private static String moduleFrameStatus(DotnetFrames module) {
    return switch (module.status()) {
      case malformed -> unsupported(module) ? "missing" : "malformed";
      case malformed_request -> "malformed";
      default -> "missing";
    };
  }

  private static boolean unsupported(DotnetFrames module) {
    return module.message() != null
        && module.message().startsWith(DotnetTableConverter.WINDOWS_PDB);
  }

  /**
   * The resolution of native module {@code index} (null: none, or not in the answer's modules),
   * by the key the native step answered it with.
   */
  private SymbolLookup.Resolution nativeModule(Integer index) {
    if (index == null || index < 0 || index >= nativeModules.length) {
      return null;
    }
    int want = index;
    if (nativeModules[want] == null) {
      for (ModuleResult mr : result.getModules()) {
        if (mr.getIndex() == want && mr.getKey() != null) {
          nativeModules[index] =
              lookup.resolve(new ModuleRef(scope, TableKind.NATIVE, mr.getKey()));
        }
      }
    }
    return nativeModules[want];
  }

  private ObjectNode module(ModuleResult mr) {
    int index = mr.getIndex();
    SymbolicateRequest.Module m = request.modules().get(index);
    ObjectNode o = Json.MAPPER.createObjectNode();
    String status;
    boolean found;
    String moduleArch = "unknown";
    if (m.dotnet()) {
      DotnetFrames d = dotnet[index];
      if (d == null) {
        status = "unused";
      } else if (d.status() == ModuleStatus.malformed && unsupported(d)) {
        status = "unsupported";
      } else {
        status = SymbolicatorNative.moduleStatus(d.status(), NOT_LOADED.equals(d.message()));
      }
      found = status.equals("found");
      o.put("debug_status", status);
      ObjectNode feats = o.putObject("features");
      feats.put("has_debug_info", found);
      feats.put("has_unwind_info", false);
      feats.put("has_symbols", false);
      feats.put(
          "has_sources", found && (d.sourceLink() || FrameContext.hasSources(d.resolution())));
      candidates(o, links.get(index));
    } else {
      status = SymbolicatorNative.moduleStatus(mr.getStatus(), NOT_LOADED.equals(mr.getMessage()));
      found = status.equals("found");
      o.put("debug_status", status);
      SymbolicatorNative.features(o, found, found);
      if (found) {
        moduleArch = arch(mr.getKey());
        ((ObjectNode) o.get("features"))
            .put("has_sources", FrameContext.hasSources(nativeModule(index)));
      }
    }
    o.put("arch", moduleArch);
    o.put("type", m.type());
    putIf(o, "code_id", m.codeId());
    putIf(o, "code_file", m.codeFile());
    putIf(o, "debug_id", SymbolicatorNative.debugId(m.debugId()));
    putIf(o, "debug_file", m.debugFile());
    o.put("image_addr", hex(m.imageAddr()));
    if (m.imageSize() != null) {
      o.put("image_size", new BigInteger(Long.toUnsignedString(m.imageSize())));
    }
    return o;
  }

  /** A found module's CPU as its symbol file names it. */
  private String arch(String key) {
    if (key == null) {
      return "unknown";
    }
    SymbolLookup.Resolution r = lookup.resolve(new ModuleRef(scope, TableKind.NATIVE, key));
    NativeHeader h = r.found() ? lookup.header(r, NativeHeader::decode) : null;
    return h == null || h.arch() == null || h.arch().isEmpty() ? "unknown" : h.arch();
  }

  /**
   * The Source Link files fetched for a module's frames, as Symbolicator lists them among the
   * module's {@code candidates} (source {@code sourcelink}, the URL, the download's status and,
   * ours, its {@code details} when not ok). Only when some were fetched.
   */
  private static void candidates(ObjectNode module, Map<String, SourceLinkResult> fetched) {
    if (fetched == null || fetched.isEmpty()) {
      return;
    }
    ArrayNode a = module.putArray("candidates");
    for (Map.Entry<String, SourceLinkResult> e : fetched.entrySet()) {
      ObjectNode c = a.addObject();
      c.put("source", "sourcelink");
      c.put("location", e.getKey());
      ObjectNode d = c.putObject("download");
      d.put("status", e.getValue().status());
      if (e.getValue().reason() != null) {
        d.put("details", e.getValue().reason());
      } else {
        ObjectNode f = d.putObject("features");
        f.put("has_debug_info", false);
        f.put("has_unwind_info", false);
        f.put("has_symbols", false);
        f.put("has_sources", true);
      }
    }
  }

  private static void putIf(ObjectNode o, String field, String value) {
    if (value != null) {
      o.put(field, value);
    }
  }
}
