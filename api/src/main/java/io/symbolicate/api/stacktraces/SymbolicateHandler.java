package io.symbolicate.api.stacktraces;

import com.fasterxml.jackson.databind.JsonNode;
import io.symbolicate.api.ApiException;
import io.symbolicate.api.RequestStats;
import io.symbolicate.api.ShapeHandler;
import io.symbolicate.api.Symbolication;
import io.symbolicate.connectors.source.SourceLinkFetcher;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.nativecode.NativeSymbolicator;
import io.symbolicate.symbolication.store.ModuleReadiness;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.dotnet.DotnetTable;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.table.ModuleRef;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code POST /symbolicate}: Symbolicator's native endpoint. The request's stack traces and
 * modules become one native {@link CrashEvent}, symbolicated by the stream's native step over the
 * same store and loader as every route (Breakpad {@code .sym}, symbfiles, ELF/Mach-O/PE/PDB debug
 * files); frames of {@code pe_dotnet} modules (method token and IL offset) are looked up in the
 * module's Portable PDB table ({@code TableKind.DOTNET}), loaded by the same loader. The answer is
 * Symbolicator's {@code CompletedSymbolicationResponse} ({@link SymbolicateResponse}). See
 * docs/api/symbolicate.md.
 */
public final class SymbolicateHandler extends ShapeHandler<SymbolicateRequest> {
  private final SymbolicateRequestReader reader;
  private final NativeSymbolicator nativeStep = new NativeSymbolicator();

  /** The caching rules of .NET tables (no stream step has them yet). */
  private final ModuleReadiness dotnetRules =
      new ModuleReadiness(
          DotnetTable.FORMAT_VERSION, DotnetTable.FORMAT_VERSION, System.currentTimeMillis());

  /**
   * Source context lines before and after a frame's line ({@code
   * symbolication.source.context.lines}; 0: none), where {@code options.apply_source_context}.
   */
  private final int contextLines;

  /** Fetches Source Link files where allowed; null: never. */
  private final SourceLinkFetcher sourceLinks;

  public SymbolicateHandler(Symbolication shared) {
    super(shared);
    this.sourceLinks = shared.sourceLinks();
    this.reader = new SymbolicateRequestReader(shared.settings().maxFrames());
    this.contextLines = shared.sourceContextLines();
  }

  @Override
  public SymbolicateRequest parse(JsonNode body) {
    return reader.read(body);
  }

  @Override
  public List<CrashEvent> events(SymbolicateRequest request, String scope) {
    return List.of(nativeEvent(request, scope, null));
  }

  @Override
  public Map<ModuleRef, ModuleReadiness> ownModules(SymbolicateRequest request, String scope) {
    Map<ModuleRef, ModuleReadiness> refs = new LinkedHashMap<>();
    FrameRouting routing = FrameRouting.of(request);
    for (int m = 0; m < request.modules().size(); m++) {
      if (routing.dotnetModuleUsed(m)) {
        ModuleRef ref = DotnetFrames.ref(request.modules().get(m), scope);
        if (ref != null) {
          refs.put(ref, dotnetRules);
        }
      }
    }
    return refs;
  }

  /**
   * Once the modules are ready: the CPU of the first native module found decides how return
   * addresses are adjusted, as Symbolicator takes the found object's architecture.
   */
  @Override
  public List<CrashEvent> whenReady(
      SymbolicateRequest request, List<CrashEvent> events, SymbolLookup lookup) {
    CrashEvent e = events.get(0);
    for (ModuleRef ref : nativeStep.modulesNeeded(e)) {
      SymbolLookup.Resolution r = lookup.resolve(ref);
      NativeHeader h = r.found() ? lookup.header(r, NativeHeader::decode) : null;
      if (h != null && h.arch() != null && !h.arch().isEmpty()) {
        return List.of(nativeEvent(request, e.getScope(), h.arch()));
      }
    }
    return events;
  }

  @Override
  public JsonNode render(
      SymbolicateRequest request, List<SymbolicatedEvent> results, RequestStats stats) {
    throw new IllegalStateException("rendered with the lookup");
  }

  @Override
  public JsonNode render(
      SymbolicateRequest request,
      List<SymbolicatedEvent> results,
      RequestStats stats,
      SymbolLookup lookup) {
    if (results.size() != 1) {
      throw new ApiException(500, "expected one symbolicated event, got " + results.size());
    }
    return new SymbolicateResponse(request, results.get(0), lookup, contextLines, sourceLinks)
        .write();
  }

  /**
   * The request as one native event: every module at its index (a {@code pe_dotnet} module with
   * no identity nor address range, so that no native frame resolves to it), every frame at its
   * index (a frame that is not native as a placeholder outside every module, its answer
   * ignored), so that the native step's frame positions and module indexes are the request's.
   */
  static CrashEvent nativeEvent(SymbolicateRequest request, String scope, String arch) {
    FrameRouting routing = FrameRouting.of(request);
    List<SymbolicateRequest.Module> in = request.modules();
    long[] starts = starts(in);
    List<NativeModule> modules = new ArrayList<>(in.size());
    for (int m = 0; m < in.size(); m++) {
      SymbolicateRequest.Module mod = in.get(m);
      if (mod.dotnet()) {
        modules.add(NativeModule.newBuilder().setType(mod.type()).build());
        continue;
      }
      modules.add(
          NativeModule.newBuilder()
              .setType(mod.type())
              .setCodeId(mod.codeId())
              .setCodeFile(mod.codeFile())
              // a path as Symbolicator takes it: the store names modules by the file's name
              .setDebugFile(mod.debugFile() == null ? null : basename(mod.debugFile()))
              .setDebugId(breakpadId(mod.debugId()))
              .setImageAddr(mod.imageAddr())
              .setImageSize(imageSize(mod, starts))
              .build());
    }
    List<NativeThread> threads = new ArrayList<>(request.stacktraces().size());
    for (int s = 0; s < request.stacktraces().size(); s++) {
      SymbolicateRequest.Stacktrace st = request.stacktraces().get(s);
      List<NativeFrame> frames = new ArrayList<>(st.frames().size());
      for (int f = 0; f < st.frames().size(); f++) {
        SymbolicateRequest.Frame fr = st.frames().get(f);
        NativeFrame.Builder b = NativeFrame.newBuilder();
        if (routing.kind(s, f) != FrameRouting.Kind.NATIVE) {
          b.setModuleIndex(-1).setModuleOffset(0L);
        } else if (fr.relative()) {
          b.setModuleIndex(fr.moduleIndex()).setModuleOffset(fr.instructionAddr());
        } else {
          b.setInstructionAddr(fr.instructionAddr());
        }
        // Symbolicator's rule: every frame but the first is a return address, unless the
        // client says otherwise (a first frame it wants adjusted is not: see the docs)
        if (Boolean.FALSE.equals(fr.adjust())) {
          b.setTrust("context");
        }
        frames.add(b.build());
      }
      threads.add(
          NativeThread.newBuilder()
              .setId(st.threadId())
              .setName(st.threadName())
              .setCrashed(Boolean.TRUE.equals(st.isRequesting()))
              .setFrames(frames)
              .build());
    }
    return CrashEvent.newBuilder()
        .setEventId("http-symbolicate-" + UUID.randomUUID())
        .setScope(scope)
        .setPlatform(Platform.native$)
        .setAttributes(Map.of("api", "symbolicate"))
        .setNative$(
            NativePayload.newBuilder()
                .setArch(arch)
                .setModules(modules)
                .setThreads(threads)
                .build())
        .build();
  }

  /** The native modules' start addresses, sorted (unsigned). */
  private static long[] starts(List<SymbolicateRequest.Module> modules) {
    long[] a =
        modules.stream()
            .filter(m -> !m.dotnet())
            .mapToLong(m -> m.imageAddr() ^ Long.MIN_VALUE)
            .sorted()
            .toArray();
    for (int i = 0; i < a.length; i++) {
      a[i] ^= Long.MIN_VALUE;
    }
    return a;
  }

  /**
   * A module's size, or where Symbolicator lets a module without one end: at the next module's
   * start (the last one: the top of the address space). {@code starts} from {@link #starts}.
   */
  static long imageSize(SymbolicateRequest.Module mod, long[] starts) {
    if (mod.imageSize() != null && mod.imageSize() != 0) {
      return mod.imageSize();
    }
    // the first start above this one (unsigned), by binary search
    int lo = 0;
    int hi = starts.length;
    while (lo < hi) {
      int mid = (lo + hi) >>> 1;
      if (Long.compareUnsigned(starts[mid], mod.imageAddr()) <= 0) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo == starts.length ? -1L - mod.imageAddr() : starts[lo] - mod.imageAddr();
  }

  private static final Pattern SENTRY_ID =
      Pattern.compile(
          "([0-9a-fA-F]{8})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{4})-([0-9a-fA-F]{12})"
              + "(?:-([0-9a-fA-F]{1,8}))?");

  private static final Pattern GUID_ONLY = Pattern.compile("[0-9a-fA-F]{32}");

  /**
   * A debug id as Symbolicator takes it (a UUID, then {@code -age} when not 0; or 32 hex digits,
   * age 0) in Breakpad's form, the GUID and the age in hex, which the store's keys use ({@code
   * 3249d99d-0c40-4931-8610-f4e4fb0b6936-1} is {@code 3249D99D0C4049318610F4E4FB0B69361}, a UUID
   * alone has age 0). Anything else as given: the store's rules check it.
   */
  static String breakpadId(String id) {
    if (id == null) {
      return null;
    }
    Matcher m = SENTRY_ID.matcher(id);
    if (m.matches()) {
      String age = m.group(6) == null ? "0" : m.group(6);
      return (m.group(1) + m.group(2) + m.group(3) + m.group(4) + m.group(5) + age)
          .toUpperCase(Locale.ROOT);
    }
    if (GUID_ONLY.matcher(id).matches()) {
      return id.toUpperCase(Locale.ROOT) + "0";
    }
    return id;
  }

  /** The last segment of a Unix or Windows path. */
  static String basename(String path) {
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(cut + 1);
  }
}
