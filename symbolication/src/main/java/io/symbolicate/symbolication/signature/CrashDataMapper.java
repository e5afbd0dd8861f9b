package io.symbolicate.symbolication.signature;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.JsPayload;
import io.symbolicate.schema.JvmException;
import io.symbolicate.schema.JvmPayload;
import io.symbolicate.schema.MinidumpModule;
import io.symbolicate.schema.NativeFrame;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.schema.NativePayload;
import io.symbolicate.schema.NativeThread;
import io.symbolicate.schema.RemappedException;
import io.symbolicate.schema.StackKind;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.schema.WalkedMinidump;
import io.symbolicate.schema.WalkedThread;
import io.symbolicate.signatures.CrashData;
import io.symbolicate.signatures.CrashDataJson;
import io.symbolicate.signatures.CrashFrame;
import io.symbolicate.signatures.CrashThread;
import io.symbolicate.signatures.JavaException;
import io.symbolicate.signatures.JavaFrame;
import io.symbolicate.signatures.JavaStackTrace;
import io.symbolicate.signatures.JsException;
import io.symbolicate.signatures.JsFrame;
import io.symbolicate.signatures.NameForms;
import io.symbolicate.symbols.nativecode.SharedUtf8;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps a symbolicated event to the signature generator's crash data (docs/signatures.md, "In
 * the pipeline"): native threads with their symbolicated frames and inlines, the JVM exception
 * as siggen's {@code java_exception}, the JavaScript exception as our {@code js_exception}. A
 * frame that did not symbolicate keeps what the raw frame says. Raw JS and JVM frames come in
 * Sentry's order (caller first) and the last exception is the one reported, so both are
 * reversed to the generator's innermost-first order.
 */
public final class CrashDataMapper {
  /** Frames read per thread or exception: the generator never looks further (inlines counted). */
  public static final int MAX_FRAMES = CrashDataJson.MAX_FRAMES_KEPT;

  /**
   * Event attributes copied to the crash data field of the same name (siggen's schema), so a
   * collector can pass what the post rules read (OS, crash reason, abort message, OOM size...).
   */
  public static final List<String> ATTRIBUTES =
      List.of(
          "os",
          "reason",
          "abort_message",
          "oom_allocation_size",
          "hang",
          "mdsw_status_string",
          "ipc_channel_error",
          "ipc_message_name",
          "async_shutdown_timeout",
          "js_large_allocation_failure");

  private CrashDataMapper() {}

  public static CrashData map(SymbolicatedEvent out) {
    CrashEvent raw = out.getEvent();
    CrashData.Builder b = CrashData.builder();
    attributes(raw.getAttributes(), b);
    if (out.getMinidump() != null) {
      minidump(out.getMinidump(), raw.getAttributes(), out.getStacks(), b);
    } else if (raw.getNative$() != null) {
      nativeThreads(raw.getNative$(), out.getStacks(), b);
    } else if (raw.getJvm() != null) {
      jvm(raw.getJvm(), out, b);
    } else if (raw.getJavascript() != null) {
      js(raw.getJavascript(), out.getStacks(), b);
    }
    return b.build();
  }

  private static void attributes(Map<String, String> attrs, CrashData.Builder b) {
    if (attrs == null || attrs.isEmpty()) {
      return;
    }
    b.os(attrs.get("os"))
        .reason(attrs.get("reason"))
        .abortMessage(attrs.get("abort_message"))
        .hang(attrs.get("hang"))
        .mdswStatusString(attrs.get("mdsw_status_string"))
        .ipcChannelError(attrs.get("ipc_channel_error"))
        .ipcMessageName(attrs.get("ipc_message_name"))
        .asyncShutdownTimeout(attrs.get("async_shutdown_timeout"))
        .jsLargeAllocationFailure(attrs.get("js_large_allocation_failure"));
    String oom = attrs.get("oom_allocation_size");
    if (oom != null) {
      try {
        b.oomAllocationSize(Long.parseLong(oom.trim()));
      } catch (NumberFormatException e) {
        // not a size: the OOM rule then sees none
      }
    }
  }

  // ---- native

  private static void nativeThreads(
      NativePayload p, List<SymbolicatedStack> stacks, CrashData.Builder b) {
    List<NativeThread> threads = p.getThreads();
    int crashing = 0;
    for (int t = 0; t < threads.size(); t++) {
      if (threads.get(t).getCrashed()) {
        crashing = t;
        break;
      }
    }
    Map<Integer, SymbolicatedStack> byThread = stacksOf(stacks, StackKind.thread);
    b.crashingThread(crashing);
    String[] names = null; // each module's name, made once per event
    for (int t = 0; t < threads.size(); t++) {
      // the rules read the crashing thread, and thread 0 for shutdown hangs: the others stay empty
      if (t == crashing || t == 0) {
        if (names == null) {
          names = new String[p.getModules().size()];
        }
        b.addThread(
            CrashThread.of(nativeFrames(threads.get(t), byThread.get(t), p.getModules(), names)));
      } else {
        b.addThread(CrashThread.of(List.of()));
      }
    }
  }

  /**
   * A walked dump: its threads and modules read as a native payload's (the requesting thread is
   * the crashing one, as Socorro's), its OS and crash reason unless the event's attributes say.
   */
  private static void minidump(
      WalkedMinidump dump,
      Map<String, String> attrs,
      List<SymbolicatedStack> stacks,
      CrashData.Builder b) {
    List<NativeModule> modules = new ArrayList<>(dump.getModules().size());
    for (MinidumpModule m : dump.getModules()) {
      modules.add(
          NativeModule.newBuilder()
              .setCodeFile(m.getCodeFile())
              .setCodeId(m.getCodeId())
              .setDebugFile(m.getDebugFile())
              .setDebugId(m.getDebugId())
              .setImageAddr(m.getImageAddr())
              .setImageSize(m.getImageSize())
              .build());
    }
    List<NativeThread> threads = new ArrayList<>(dump.getThreads().size());
    for (WalkedThread t : dump.getThreads()) {
      threads.add(
          NativeThread.newBuilder()
              .setId(t.getId())
              .setName(t.getName())
              .setCrashed(t.getRequesting())
              .setFrames(t.getFrames())
              .build());
    }
    nativeThreads(
        NativePayload.newBuilder().setModules(modules).setThreads(threads).build(), stacks, b);
    if (attrs == null || attrs.get("os") == null) {
      b.os(dump.getOs());
    }
    if (attrs == null || attrs.get("reason") == null) {
      b.reason(dump.getCrashReason());
    }
  }

  private static List<CrashFrame> nativeFrames(
      NativeThread thread, SymbolicatedStack stack, List<NativeModule> modules, String[] names) {
    List<NativeFrame> raw = thread.getFrames();
    List<CrashFrame> out = new ArrayList<>();
    int counted = 0; // frames and inlines: the generator reads MAX_FRAMES of them
    if (stack == null) {
      for (int i = 0; i < raw.size() && counted < MAX_FRAMES; i++, counted++) {
        out.add(nativeFrame(raw.get(i), null, modules, names).build());
      }
      return out;
    }
    List<SymbolicatedFrame> frames = stack.getFrames();
    int i = 0;
    while (i < frames.size() && counted < MAX_FRAMES) {
      int index = frames.get(i).getOriginalIndex();
      int end = i;
      while (end + 1 < frames.size() && frames.get(end + 1).getOriginalIndex() == index) {
        end++;
      }
      // innermost first: the inlined callees, then the frame's own function
      NativeFrame rawFrame = index >= 0 && index < raw.size() ? raw.get(index) : null;
      CrashFrame.Builder f = nativeFrame(rawFrame, frames.get(end), modules, names);
      for (int k = i; k < end && counted < MAX_FRAMES; k++, counted++) {
        SymbolicatedFrame in = frames.get(k);
        f.addInline(
            CrashFrame.inline(
                str(in.getFunction()), formsOf(in.getFunction()), str(in.getFile()), in.getLine()));
      }
      out.add(f.build());
      counted++;
      i = end + 1;
    }
    return out;
  }

  private static CrashFrame.Builder nativeFrame(
      NativeFrame raw, SymbolicatedFrame sym, List<NativeModule> modules, String[] names) {
    CrashFrame.Builder f = CrashFrame.builder();
    Integer moduleIndex =
        sym != null && sym.getModuleIndex() != null
            ? sym.getModuleIndex()
            : raw == null ? null : raw.getModuleIndex();
    Long moduleOffset =
        sym != null && sym.getModuleOffset() != null
            ? sym.getModuleOffset()
            : raw == null ? null : raw.getModuleOffset();
    boolean known = moduleIndex != null && moduleIndex >= 0 && moduleIndex < modules.size();
    NativeModule module = known ? modules.get(moduleIndex) : null;
    if (sym != null) {
      f.function(str(sym.getFunction()), formsOf(sym.getFunction()))
          .file(str(sym.getFile()))
          .line(sym.getLine());
    }
    String name = null;
    if (module != null) {
      name = names[moduleIndex];
      if (name == null) {
        name = moduleName(module);
        names[moduleIndex] = name;
      }
      f.module(name);
    }
    if (name != null && !name.isEmpty()) {
      // the generator reads a frame's offsets only when it has no module name (normalize_frame's
      // last resort): not formatted for the frames that have one, nearly all
      return f;
    }
    if (moduleOffset != null) {
      f.moduleOffset(hex(moduleOffset));
    }
    if (raw != null && raw.getInstructionAddr() != null) {
      f.offset(hex(raw.getInstructionAddr()));
    } else if (module != null && module.getImageAddr() != null && moduleOffset != null) {
      f.offset(hex(module.getImageAddr() + moduleOffset));
    }
    return f;
  }

  /** The module's file name, as Socorro names modules: code file, else debug file, no directory. */
  static String moduleName(NativeModule m) {
    String path =
        m.getCodeFile() != null && !m.getCodeFile().isBlank() ? m.getCodeFile() : m.getDebugFile();
    if (path == null) {
      return null;
    }
    int cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
    return path.substring(cut + 1);
  }

  private static String hex(long v) {
    return "0x" + Long.toHexString(v);
  }

  // ---- JVM

  private static void jvm(JvmPayload p, SymbolicatedEvent out, CrashData.Builder b) {
    List<JvmException> exceptions = p.getExceptions();
    if (exceptions.isEmpty()) {
      return;
    }
    int x = exceptions.size() - 1; // Sentry's order: the reported exception comes last
    JvmException ex = exceptions.get(x);
    String type = ex.getType();
    String module = ex.getModule();
    for (RemappedException r : out.getExceptions()) {
      if (r.getIndex() == x) {
        type = r.getType() != null ? r.getType() : type;
        module = r.getModule() != null ? r.getModule() : module;
        break;
      }
    }
    SymbolicatedStack stack = stacksOf(out.getStacks(), StackKind.exception).get(x);
    Map<Integer, List<SymbolicatedFrame>> byIndex = lastFrames(stack, ex.getFrames().size());
    List<JavaFrame> frames = new ArrayList<>();
    for (int i = ex.getFrames().size() - 1; i >= 0 && frames.size() < MAX_FRAMES; i--) {
      var rawFrame = ex.getFrames().get(i);
      List<SymbolicatedFrame> sym = byIndex.getOrDefault(i, List.of());
      boolean mapped = false;
      for (SymbolicatedFrame s : sym) {
        if (s.getClassName() == null || frames.size() >= MAX_FRAMES) {
          break;
        }
        mapped = true;
        frames.add(
            new JavaFrame(
                s.getClassName(),
                str(s.getFunction()),
                s.getFile() != null ? str(s.getFile()) : rawFrame.getFilename()));
        if (!s.getInlined()) {
          break; // an ambiguous frame: its first alternative's chain only
        }
      }
      if (!mapped) {
        frames.add(
            new JavaFrame(rawFrame.getModule(), rawFrame.getFunction(), rawFrame.getFilename()));
      }
    }
    b.javaException(JavaException.of(new JavaStackTrace(type, module, ex.getValue(), frames)));
  }

  // ---- JavaScript

  private static void js(JsPayload p, List<SymbolicatedStack> stacks, CrashData.Builder b) {
    var exceptions = p.getExceptions();
    if (exceptions.isEmpty()) {
      return;
    }
    int x = exceptions.size() - 1; // Sentry's order: the reported exception comes last
    var ex = exceptions.get(x);
    Map<Integer, List<SymbolicatedFrame>> byIndex =
        lastFrames(stacksOf(stacks, StackKind.exception).get(x), ex.getFrames().size());
    List<JsFrame> frames = new ArrayList<>();
    for (int i = ex.getFrames().size() - 1; i >= 0 && frames.size() < MAX_FRAMES; i--) {
      var rawFrame = ex.getFrames().get(i);
      List<SymbolicatedFrame> sym = byIndex.get(i);
      SymbolicatedFrame s = sym == null ? null : sym.get(0);
      if (s != null && s.getFile() != null) {
        frames.add(
            new JsFrame(
                s.getFunction() != null ? str(s.getFunction()) : rawFrame.getFunction(),
                str(s.getFile()),
                s.getLine(),
                s.getColumn(),
                null));
      } else {
        frames.add(
            new JsFrame(
                rawFrame.getFunction(),
                rawFrame.getAbsPath(),
                rawFrame.getLineno(),
                rawFrame.getColno(),
                null));
      }
    }
    b.jsException(new JsException(ex.getType(), ex.getValue(), frames));
  }

  // ---- helpers

  private static Map<Integer, SymbolicatedStack> stacksOf(
      List<SymbolicatedStack> stacks, StackKind kind) {
    Map<Integer, SymbolicatedStack> m = new HashMap<>();
    for (SymbolicatedStack s : stacks) {
      if (s.getKind() == kind) {
        m.putIfAbsent(s.getIndex(), s);
      }
    }
    return m;
  }

  /**
   * The output frames of the last {@link #MAX_FRAMES} raw frames (each gives at least one frame,
   * so the generator reads no others), by raw index; other indexes are left out.
   */
  private static Map<Integer, List<SymbolicatedFrame>> lastFrames(
      SymbolicatedStack stack, int rawFrames) {
    Map<Integer, List<SymbolicatedFrame>> out = new HashMap<>();
    int lo = Math.max(0, rawFrames - MAX_FRAMES);
    if (stack != null) {
      for (SymbolicatedFrame f : stack.getFrames()) {
        int i = f.getOriginalIndex();
        if (i >= lo && i < rawFrames) {
          out.computeIfAbsent(i, k -> new ArrayList<>(1)).add(f);
        }
      }
    }
    return out;
  }

  /** Slots per thread of the page strings' memo (a power of two). */
  static final int PAGE_STRINGS = 4096;

  // per thread, by identity: a decoded page's names and paths (SharedUtf8) are shared by every
  // frame that carries them while the page is cached, and build a new String each time they are
  // asked; remembered, a name is copied once, and its String (hash kept) is the same each event,
  // so the generator's memo of normalized functions finds it at once. Direct-mapped (a slot per
  // identity hash, the newest name wins it): a miss costs one array read, where a hash map's
  // probes and clearing cost more than the copy it saves on streams whose functions rarely
  // repeat (issue 48's benchmark: 30 frames drawn from 160,000 functions)
  private static final ThreadLocal<PageStrings> PAGE_STRING_MEMO =
      ThreadLocal.withInitial(PageStrings::new);

  /** The memo's slots: a page's name and the String made of it. */
  private static final class PageStrings {
    final SharedUtf8[] names = new SharedUtf8[PAGE_STRINGS];
    final String[] strings = new String[PAGE_STRINGS];
  }

  private static String str(CharSequence s) {
    if (s == null || s instanceof String) {
      return (String) s;
    }
    if (!(s instanceof SharedUtf8 shared)) {
      return s.toString();
    }
    PageStrings memo = PAGE_STRING_MEMO.get();
    int slot = System.identityHashCode(shared) & (PAGE_STRINGS - 1);
    if (memo.names[slot] == shared) {
      return memo.strings[slot];
    }
    String made = shared.toString();
    memo.names[slot] = shared;
    memo.strings[slot] = made;
    return made;
  }

  /**
   * The page name that keeps the function's normalized form in its own slot (SharedUtf8.keep,
   * counted in the page's size estimate); null for a name that is not a page's. Issue 48:
   * normalizing each frame's function was a quarter of the stream thread, and a per-thread memo
   * of 4,096 functions missed nearly always on 30 frames an event drawn from 160,000 functions.
   * Nothing of the name is read here: the generator reads the slot once, where it needs it.
   */
  private static NameForms.Slot formsOf(CharSequence function) {
    return function instanceof SharedUtf8 shared ? new PageName(shared) : null;
  }

  /** A page's name as the generator's slot for its form: the name's own (SharedUtf8.keep). */
  private record PageName(SharedUtf8 name) implements NameForms.Slot {
    @Override
    public Object kept() {
      return name.kept();
    }

    @Override
    public void keep(Object value) {
      name.keep(value);
    }
  }
}
