package io.symbolicate.symbols.jvm;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Remaps the JVM parts of a Sentry-style event: exception type/module, frames (which Sentry sends
 * caller first, so an inline expansion is emitted outermost first) and extra class names such as
 * view hierarchies.
 */
public final class JvmEventRemapper {
  /** A Sentry frame: {@code module} is the class, {@code function} the method. lineno 0 = none. */
  public record Frame(String module, String function, String filename, int lineno, int index) {}

  /** An exception: Sentry splits the class into module (package) and type (simple name). */
  public record ExceptionInfo(String type, String module) {}

  private final Retracer retracer;

  public JvmEventRemapper(Retracer retracer) {
    this.retracer = retracer;
  }

  public ExceptionInfo remapException(ExceptionInfo e) {
    String full =
        e.module() == null || e.module().isEmpty() ? e.type() : e.module() + "." + e.type();
    String orig = retracer.remapClass(full);
    if (orig == null) {
      return e;
    }
    int dot = orig.lastIndexOf('.');
    return dot < 0
        ? new ExceptionInfo(orig, null)
        : new ExceptionInfo(orig.substring(dot + 1), orig.substring(0, dot));
  }

  /** Remaps frames given caller first; returns them caller first, inline expansions included. */
  public List<Frame> remapFrames(List<Frame> frames) {
    List<Frame> out = new ArrayList<>(frames.size() + 4);
    for (Frame f : frames) {
      FrameResult r = retracer.retrace(f.module(), f.function(), f.lineno());
      switch (r.status()) {
        case UNKNOWN_CLASS -> out.add(f);
        case CLASS_ONLY ->
            out.add(
                new Frame(r.originalClass(), f.function(), f.filename(), f.lineno(), f.index()));
        case MAPPED -> {
          List<RetracedFrame> rf = r.frames();
          for (int i = rf.size() - 1; i >= 0; i--) {
            RetracedFrame x = rf.get(i);
            out.add(
                new Frame(
                    x.className(), x.method(), x.sentryFile(), Math.max(x.line(), 0), f.index()));
          }
        }
        default -> throw new IllegalStateException();
      }
    }
    return out;
  }

  /** Remaps class names (e.g. of a view hierarchy); names the mapping does not know are left out. */
  public Map<String, String> remapClasses(Collection<String> obfuscated) {
    Map<String, String> out = new LinkedHashMap<>();
    for (String c : obfuscated) {
      String o = retracer.remapClass(c);
      if (o != null) {
        out.put(c, o);
      }
    }
    return out;
  }
}
