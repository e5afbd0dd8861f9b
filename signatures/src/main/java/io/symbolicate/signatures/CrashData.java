package io.symbolicate.signatures;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Crash data in siggen's signature generation schema (see docs/signatures.md and siggen's
 * schema.rst), plus our {@code js_exception} extension. Every field is optional. Build one with
 * {@link #builder()} from a symbolicated event, or read one from JSON with {@link CrashDataJson}.
 */
public final class CrashData {
  /** siggen's get_crashing_thread: an int, 0 when absent or not a number. */
  final BigInteger crashingThread;

  final List<CrashThread> threads;

  /** A String, or another truthy JSON value that siggen reports as not in the expected format. */
  final Object javaStackTrace;

  final JavaException javaException;
  final JsException jsException;

  /** The JSON value (int, string, ...): siggen applies Python's int() to it. */
  final Object oomAllocationSize;

  final String abortMessage;

  /** The JSON value of {@code hang}; any non-null value marks a hang. */
  final Object hang;

  final String asyncShutdownTimeout;
  final String ipcChannelError;
  final String ipcMessageName;
  final List<String> additionalMinidumps;
  final String mdswStatusString;
  final String reason;
  final String os;
  final String jsLargeAllocationFailure;

  /** Why {@code js_exception} could not be read (the stack rule fails with it), or null. */
  final String jsExceptionFailure;

  /** What reading the input skipped or cut, noted before the rules' notes. */
  final List<String> inputNotes;

  private CrashData(Builder b) {
    this.crashingThread = b.crashingThread;
    this.threads = List.copyOf(b.threads);
    this.javaStackTrace = b.javaStackTrace;
    this.javaException = b.javaException;
    this.jsException = b.jsException;
    this.oomAllocationSize = b.oomAllocationSize;
    this.abortMessage = b.abortMessage;
    this.hang = b.hang;
    this.asyncShutdownTimeout = b.asyncShutdownTimeout;
    this.ipcChannelError = b.ipcChannelError;
    this.ipcMessageName = b.ipcMessageName;
    this.additionalMinidumps = List.copyOf(b.additionalMinidumps);
    this.mdswStatusString = b.mdswStatusString;
    this.reason = b.reason;
    this.os = b.os;
    this.jsLargeAllocationFailure = b.jsLargeAllocationFailure;
    this.jsExceptionFailure = b.jsExceptionFailure;
    this.inputNotes = List.copyOf(b.inputNotes);
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A copy whose crashing thread is {@code index} (the shutdown-hang rule looks at thread 0). */
  CrashData withCrashingThread(int index) {
    Builder b = toBuilder();
    b.crashingThread = BigInteger.valueOf(index);
    return b.build();
  }

  private Builder toBuilder() {
    Builder b = new Builder();
    b.crashingThread = crashingThread;
    b.threads.addAll(threads);
    b.javaStackTrace = javaStackTrace;
    b.javaException = javaException;
    b.jsException = jsException;
    b.oomAllocationSize = oomAllocationSize;
    b.abortMessage = abortMessage;
    b.hang = hang;
    b.asyncShutdownTimeout = asyncShutdownTimeout;
    b.ipcChannelError = ipcChannelError;
    b.ipcMessageName = ipcMessageName;
    b.additionalMinidumps.addAll(additionalMinidumps);
    b.mdswStatusString = mdswStatusString;
    b.reason = reason;
    b.os = os;
    b.jsLargeAllocationFailure = jsLargeAllocationFailure;
    b.jsExceptionFailure = jsExceptionFailure;
    b.inputNotes.addAll(inputNotes);
    return b;
  }

  public List<CrashThread> threads() {
    return threads;
  }

  /** The thread at siggen's crashing index (Python indexing: negative counts from the end). */
  CrashThread crashingThreadData() {
    return threadAt(crashingThread);
  }

  CrashThread threadAt(BigInteger index) {
    int n = threads.size();
    if (index.compareTo(BigInteger.valueOf(n)) >= 0
        || index.compareTo(BigInteger.valueOf(-n)) < 0) {
      return null;
    }
    int i = index.intValueExact();
    return threads.get(i < 0 ? n + i : i);
  }

  /** Builder; every field is optional. */
  public static final class Builder {
    private BigInteger crashingThread = BigInteger.ZERO;
    private final List<CrashThread> threads = new ArrayList<>();
    private Object javaStackTrace;
    private JavaException javaException;
    private JsException jsException;
    private Object oomAllocationSize;
    private String abortMessage;
    private Object hang;
    private String asyncShutdownTimeout;
    private String ipcChannelError;
    private String ipcMessageName;
    private final List<String> additionalMinidumps = new ArrayList<>();
    private String mdswStatusString;
    private String reason;
    private String os;
    private String jsLargeAllocationFailure;
    private String jsExceptionFailure;
    private final List<String> inputNotes = new ArrayList<>();

    private Builder() {}

    Builder jsExceptionFailure(String reason) {
      this.jsExceptionFailure = reason;
      return this;
    }

    Builder inputNote(String note) {
      inputNotes.add(note);
      return this;
    }

    /** Index of the crashing thread in {@link #addThread threads}; {@code null} means 0, as in siggen. */
    public Builder crashingThread(Integer index) {
      this.crashingThread = index == null ? BigInteger.ZERO : BigInteger.valueOf(index);
      return this;
    }

    Builder crashingThreadResolved(BigInteger index) {
      this.crashingThread = index;
      return this;
    }

    public Builder addThread(CrashThread thread) {
      threads.add(Objects.requireNonNull(thread, "thread"));
      return this;
    }

    /** A Java traceback as one string (siggen's JavaSignatureTool). */
    public Builder javaStackTrace(String trace) {
      this.javaStackTrace = trace;
      return this;
    }

    Builder javaStackTraceValue(Object value) {
      this.javaStackTrace = value;
      return this;
    }

    public Builder javaException(JavaException exception) {
      this.javaException = exception;
      return this;
    }

    /** Our extension: a JavaScript exception, signed by the rule in docs/signatures.md. */
    public Builder jsException(JsException exception) {
      this.jsException = exception;
      return this;
    }

    public Builder oomAllocationSize(Long bytes) {
      this.oomAllocationSize = bytes;
      return this;
    }

    Builder oomAllocationSizeValue(Object value) {
      this.oomAllocationSize = value;
      return this;
    }

    public Builder abortMessage(String message) {
      this.abortMessage = message;
      return this;
    }

    /** The hang type (siggen's {@code hang}); any non-null value prefixes "hang: ...". */
    public Builder hang(String hangType) {
      this.hang = hangType;
      return this;
    }

    Builder hangValue(Object value) {
      this.hang = value;
      return this;
    }

    /** The AsyncShutdownTimeout annotation: JSON text with "phase" and "conditions". */
    public Builder asyncShutdownTimeout(String json) {
      this.asyncShutdownTimeout = json;
      return this;
    }

    public Builder ipcChannelError(String error) {
      this.ipcChannelError = error;
      return this;
    }

    public Builder ipcMessageName(String name) {
      this.ipcMessageName = name;
      return this;
    }

    public Builder addAdditionalMinidump(String name) {
      additionalMinidumps.add(name);
      return this;
    }

    /** minidump-stackwalk's status string, appended to "EMPTY" signatures. */
    public Builder mdswStatusString(String status) {
      this.mdswStatusString = status;
      return this;
    }

    /** The crash reason (crash_info.type), e.g. EXCEPTION_STACK_OVERFLOW. */
    public Builder reason(String reason) {
      this.reason = reason;
      return this;
    }

    /** The OS name; "Windows NT" lower-cases module names. */
    public Builder os(String os) {
      this.os = os;
      return this;
    }

    public Builder jsLargeAllocationFailure(String value) {
      this.jsLargeAllocationFailure = value;
      return this;
    }

    public CrashData build() {
      return new CrashData(this);
    }
  }
}
