package io.symbolicate.symbolication.jvm;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmFrame;
import io.symbolicate.schema.JvmModule;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.Platform;
import io.symbolicate.schema.RemappedException;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.symbolication.platform.PlatformSymbolicator;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.symbolication.store.SourceContextLookup;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.jvm.FrameResult;
import io.symbolicate.symbols.jvm.JvmEventRemapper;
import io.symbolicate.symbols.jvm.JvmHeader;
import io.symbolicate.symbols.jvm.JvmPages;
import io.symbolicate.symbols.jvm.JvmSourceBundle;
import io.symbolicate.symbols.jvm.JvmSourcePath;
import io.symbolicate.symbols.jvm.JvmTable;
import io.symbolicate.symbols.jvm.MappingLocator;
import io.symbolicate.symbols.jvm.RetracedFrame;
import io.symbolicate.symbols.jvm.Retracer;
import io.symbolicate.symbols.sources.ContextLines;
import io.symbolicate.symbols.sources.SourceContext;
import io.symbolicate.symbols.sources.SourcePage;
import io.symbolicate.symbols.sources.SourcePages;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.PageSource;
import io.symbolicate.symbols.table.TableKind;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * JVM step: retraces frames with the event's ProGuard/R8 mappings (found by mapping UUID, scope
 * first, then global), expanding inlined frames innermost first and marking ambiguous
 * alternatives; remaps exception types and the event's extra class names. Frames get source
 * context from the event's JVM source bundles ({@code type: source} modules, by debug id), found
 * by the URL Symbolicator builds from the frame's class and file ({@link JvmSourcePath}).
 */
public final class JvmSymbolicator implements PlatformSymbolicator {
  /** The module type that names a JVM source bundle (Symbolicator's). */
  public static final String SOURCE_MODULE = "source";

  private final int contextLines;

  /** With Symbolicator's five lines of source context where the event names a source bundle. */
  public JvmSymbolicator() {
    this(ContextLines.DEFAULT_LINES);
  }

  /**
   * @param contextLines source context lines before and after a frame's line, from the event's
   *     source bundles ({@code symbolication.source.context.lines}); 0: none, and the bundles are
   *     not loaded
   */
  public JvmSymbolicator(int contextLines) {
    if (contextLines < 0) {
      throw new IllegalArgumentException("context lines must be >= 0");
    }
    this.contextLines = contextLines;
  }

  /** Source context lines before and after a frame's line (0: none). */
  public int contextLines() {
    return contextLines;
  }

  static boolean isSourceBundle(JvmModule m) {
    return SOURCE_MODULE.equals(m.getType());
  }

  @Override
  public Platform platform() {
    return Platform.jvm;
  }

  @Override
  public int tableFormatVersion() {
    return JvmTable.FORMAT_VERSION;
  }

  /** The mapping UUID in canonical form, or null when it is not a UUID. */
  static String validUuid(JvmModule m) {
    if (m.getUuid() == null) {
      return null;
    }
    try {
      return MappingLocator.normaliseUuid(m.getUuid());
    } catch (IllegalArgumentException e) {
      return null;
    }
  }

  @Override
  public List<ModuleRef> modulesNeeded(CrashEvent event) {
    Set<ModuleRef> refs = new LinkedHashSet<>();
    for (JvmModule m : event.getJvm().getModules()) {
      String uuid = validUuid(m);
      if (uuid == null) {
        continue;
      }
      if (!isSourceBundle(m)) {
        refs.add(new ModuleRef(event.getScope(), TableKind.JVM, uuid));
      } else if (contextLines > 0) {
        refs.add(new ModuleRef(event.getScope(), TableKind.JVM, JvmSourceBundle.KEY_PREFIX + uuid));
      }
    }
    return new ArrayList<>(refs);
  }

  @Override
  public SymbolicatedEvent symbolicate(CrashEvent event, SymbolLookup lookup, long nowMillis) {
    SymbolicatedEvent.Builder out = SymbolicatedEvents.builder(event, nowMillis);
    List<JvmModule> modules = event.getJvm().getModules();
    List<Retracer> retracers = new ArrayList<>();
    List<PageSource<SourcePage>> bundles = new ArrayList<>();
    boolean anyMapping = false;
    ModuleStatus worst = null;
    String worstMessage = null;
    // a mapping named twice is one retracer: every frame is retraced against each of them, so
    // 14,000 copies of one UUID cost seconds per event (the modules cap counts distinct ones)
    Map<String, SymbolLookup.Resolution> seen = new HashMap<>();
    for (int m = 0; m < modules.size(); m++) {
      anyMapping |= !isSourceBundle(modules.get(m));
      String uuid = validUuid(modules.get(m));
      if (uuid == null) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    m,
                    modules.get(m).getUuid(),
                    ModuleStatus.malformed_request,
                    isSourceBundle(modules.get(m))
                        ? "not a source bundle's debug id (a UUID)"
                        : "not a ProGuard UUID"));
        continue;
      }
      if (isSourceBundle(modules.get(m))) {
        sourceBundle(out, m, event.getScope(), uuid, lookup, seen, bundles);
        continue;
      }
      SymbolLookup.Resolution again = seen.get(uuid);
      if (again != null) {
        out.getModules()
            .add(
                SymbolicatedEvents.module(
                    m, uuid, again.moduleStatus(), again.found() ? null : again.message()));
        continue;
      }
      SymbolLookup.Resolution r =
          lookup.resolve(new ModuleRef(event.getScope(), TableKind.JVM, uuid));
      seen.put(uuid, r);
      out.getModules()
          .add(
              SymbolicatedEvents.module(m, uuid, r.moduleStatus(), r.found() ? null : r.message()));
      out.getModulesInStack().add(uuid);
      if (r.found()) {
        retracers.add(
            new Retracer(lookup.header(r, JvmHeader::decode), lookup.pages(r, JvmPages::decode)));
      } else {
        if (r.moduleStatus() == ModuleStatus.missing) {
          out.getMissingSymbols().add(uuid);
        }
        worst = r.moduleStatus();
        worstMessage = r.message();
      }
    }
    FrameStatus unavailable = retracers.isEmpty() ? statusFor(worst) : FrameStatus.no_symbol;
    String unavailableMsg =
        retracers.isEmpty()
            ? (anyMapping ? worstMessage : "the event names no ProGuard mapping")
            : "class not in the mapping";

    SourceContextLookup.Budget budget = new SourceContextLookup.Budget();
    List<JvmException> exceptions = event.getJvm().getExceptions();
    int extra =
        SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT; // output frames beyond one per input frame
    for (int x = 0; x < exceptions.size(); x++) {
      JvmException ex = exceptions.get(x);
      remapException(out, x, ex, retracers);
      List<JvmFrame> frames = ex.getFrames();
      List<SymbolicatedFrame> result = new ArrayList<>(frames.size());
      for (int i = 0; i < frames.size(); i++) {
        JvmFrame f = frames.get(i);
        if (f.getModule() == null || f.getModule().isBlank() || f.getFunction() == null) {
          result.add(
              SymbolicatedEvents.frame(
                      i, FrameStatus.invalid_frame, "a JVM frame needs module (class) and function")
                  .build());
          continue;
        }
        extra = retraceFrame(result, i, f, retracers, unavailable, unavailableMsg, extra);
      }
      if (!bundles.isEmpty()) {
        addContext(result, frames, bundles, budget);
      }
      out.getStacks().add(SymbolicatedEvents.stack(StackKind.exception, x, result));
    }
    Map<String, String> classes = new LinkedHashMap<>();
    for (Retracer r : retracers) {
      new JvmEventRemapper(r)
          .remapClasses(event.getJvm().getClasses())
          .forEach(classes::putIfAbsent);
    }
    out.setClasses(classes);
    return out.build();
  }

  /**
   * A {@code source} module: its bundle's table (pages of sources only) resolved like a mapping,
   * its status reported under its key {@code source/<uuid>}; with source context off it is not
   * loaded ({@code unused}). It never decides a frame's status: a frame without its source is
   * still retraced.
   */
  private void sourceBundle(
      SymbolicatedEvent.Builder out,
      int index,
      String scope,
      String uuid,
      SymbolLookup lookup,
      Map<String, SymbolLookup.Resolution> seen,
      List<PageSource<SourcePage>> bundles) {
    String key = JvmSourceBundle.KEY_PREFIX + uuid;
    if (contextLines == 0) {
      out.getModules()
          .add(SymbolicatedEvents.module(index, key, ModuleStatus.unused, "source context is off"));
      return;
    }
    SymbolLookup.Resolution again = seen.get(key);
    SymbolLookup.Resolution r =
        again != null ? again : lookup.resolve(new ModuleRef(scope, TableKind.JVM, key));
    out.getModules()
        .add(
            SymbolicatedEvents.module(
                index, key, r.moduleStatus(), r.found() ? null : r.message()));
    if (again != null) {
      return;
    }
    seen.put(key, r);
    if (r.found()) {
      PageSource<SourcePage> pages = SourceContextLookup.sources(lookup, r);
      if (pages != null) {
        bundles.add(pages);
      }
    } else if (r.moduleStatus() == ModuleStatus.missing) {
      out.getMissingSymbols().add(key);
    }
  }

  /**
   * Context lines for the frames of one stack, as Symbolicator adds them: every frame with a
   * line (retraced or not) whose source file, at the URL built from its class (the original one
   * when retraced) and file name, is in one of the bundles (the first that has it).
   */
  private void addContext(
      List<SymbolicatedFrame> result,
      List<JvmFrame> frames,
      List<PageSource<SourcePage>> bundles,
      SourceContextLookup.Budget budget) {
    for (SymbolicatedFrame o : result) {
      JvmFrame in = frames.get(o.getOriginalIndex());
      if (o.getStatus() == FrameStatus.invalid_frame || in.getModule() == null) {
        continue;
      }
      boolean retraced = o.getStatus() == FrameStatus.symbolicated;
      Integer line = retraced ? o.getLine() : in.getLineno();
      if (line == null || line <= 0) {
        continue;
      }
      String cls = o.getClassName() != null ? o.getClassName() : in.getModule();
      String file = o.getFile() != null ? o.getFile().toString() : in.getFilename();
      String url = JvmSourcePath.of(cls, file);
      for (PageSource<SourcePage> b : bundles) {
        SourceContext c = SourcePages.context(b, url, line, contextLines);
        if (c != null) {
          SourceContextLookup.put(o, c, budget);
          break;
        }
      }
    }
  }

  /** Adds the frame's output frames; returns what is left of the event's extra frames. */
  private static int retraceFrame(
      List<SymbolicatedFrame> out,
      int index,
      JvmFrame f,
      List<Retracer> retracers,
      FrameStatus unavailable,
      String unavailableMsg,
      int extra) {
    int line = f.getLineno() == null ? 0 : f.getLineno();
    for (Retracer r : retracers) {
      FrameResult res = r.retrace(f.getModule(), f.getFunction(), line);
      switch (res.status()) {
        case UNKNOWN_CLASS -> {
          continue;
        }
        case CLASS_ONLY -> {
          out.add(
              SymbolicatedEvents.frame(
                      index,
                      FrameStatus.symbolicated,
                      "class remapped; no method range matches the line")
                  .setClassName(res.originalClass())
                  .setFunction(f.getFunction())
                  .setLine(f.getLineno())
                  .setAmbiguous(true)
                  .build());
          return extra;
        }
        case MAPPED -> {
          boolean ambiguous = res.ambiguous();
          List<RetracedFrame> rf = res.frames();
          int keep = rf.size();
          String note =
              res.truncated()
                  ? Retracer.MAX_FRAMES_PER_LOOKUP
                      + " or more frames retrace from this one; those past "
                      + Retracer.MAX_FRAMES_PER_LOOKUP
                      + " are not listed"
                  : null;
          if (keep - 1 > extra) {
            // the event's budget is spent: the first alternative only (its inline chain)
            int first = 1;
            while (first < rf.size() && rf.get(first).alternative() == rf.get(0).alternative()) {
              first++;
            }
            keep = Math.min(first, 1 + extra);
            note =
                (rf.size() - keep)
                    + (res.truncated() ? " or more" : "")
                    + " further frames not listed (at most "
                    + SymbolicatedEvents.MAX_EXTRA_FRAMES_PER_EVENT
                    + " beyond one per input frame in an event)";
          }
          for (int k = 0; k < keep; k++) {
            RetracedFrame x = rf.get(k);
            // frames of one alternative form an inline chain: all but its last are inlined (a
            // chain cut by the budget keeps its frames' flags)
            boolean inlined = k + 1 < rf.size() && rf.get(k + 1).alternative() == x.alternative();
            out.add(
                SymbolicatedEvents.frame(
                        index, FrameStatus.symbolicated, k + 1 == keep ? note : null)
                    .setClassName(x.className())
                    .setFunction(x.method())
                    .setFile(x.sentryFile())
                    .setLine(x.line() > 0 ? x.line() : null)
                    .setInlined(inlined)
                    .setAmbiguous(ambiguous)
                    .build());
          }
          return extra - (keep - 1);
        }
        default -> throw new IllegalStateException("unexpected retrace status " + res.status());
      }
    }
    out.add(SymbolicatedEvents.frame(index, unavailable, unavailableMsg).build());
    return extra;
  }

  private static void remapException(
      SymbolicatedEvent.Builder out, int index, JvmException ex, List<Retracer> retracers) {
    if (ex.getType() == null) {
      return;
    }
    for (Retracer r : retracers) {
      var mapped =
          new JvmEventRemapper(r)
              .remapException(new JvmEventRemapper.ExceptionInfo(ex.getType(), ex.getModule()));
      if (!mapped.type().equals(ex.getType()) || !Objects.equals(mapped.module(), ex.getModule())) {
        out.getExceptions()
            .add(
                RemappedException.newBuilder()
                    .setIndex(index)
                    .setType(mapped.type())
                    .setModule(mapped.module())
                    .build());
        return;
      }
    }
  }

  private static FrameStatus statusFor(ModuleStatus s) {
    if (s == null) {
      return FrameStatus.missing_symbols;
    }
    return switch (s) {
      case malformed -> FrameStatus.malformed_symbols;
      case fetch_failed -> FrameStatus.fetch_failed;
      default -> FrameStatus.missing_symbols;
    };
  }
}
