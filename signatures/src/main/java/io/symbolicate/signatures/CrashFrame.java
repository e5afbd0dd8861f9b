package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One native stack frame in siggen's crash data schema ({@code threads[].frames[]}), or one of
 * its inlined callers ({@code inlines[]}, which use only function, file and line). Fields are
 * optional; the numeric-looking fields keep the JSON value they came with (a line may be an
 * integer or a string, an offset a hex string), because siggen prints them as Python would.
 */
public final class CrashFrame {
  final String function;

  /**
   * Where the caller keeps {@code function}'s normalized forms between events (a NameForms, or
   * the name's own {@link NameForms.Slot}), or null.
   */
  final Object functionForms;

  final String module;
  final String file;
  final Object line;
  final Object moduleOffset;
  final Object offset;
  final List<CrashFrame> inlines;

  /** Module names of {@code unloaded_modules[]} (an entry without one is {@code null}). */
  final List<String> unloadedModules;

  /**
   * Malformed JSON kept for siggen's failure on it: what reaching this frame raises (the entry is
   * not an object, its {@code inlines} are not a list of objects), or null.
   */
  final RuleFailure failure;

  /** {@code function}, {@code module}, {@code file} when they were not strings (else null). */
  final Object badFunction;

  final Object badModule;
  final Object badFile;

  /** {@code unloaded_modules} when it was not a list whose first item is an object (else null). */
  final Object badUnloaded;

  private CrashFrame(Builder b) {
    this.function = b.function;
    this.functionForms = b.functionForms;
    this.module = b.module;
    this.file = b.file;
    this.line = b.line;
    this.moduleOffset = b.moduleOffset;
    this.offset = b.offset;
    this.inlines = b.inlines == null ? List.of() : List.copyOf(b.inlines);
    this.unloadedModules =
        b.unloadedModules == null
            ? List.of()
            : Collections.unmodifiableList(new ArrayList<>(b.unloadedModules));
    this.failure = b.failure;
    this.badFunction = b.badFunction;
    this.badModule = b.badModule;
    this.badFile = b.badFile;
    this.badUnloaded = b.badUnloaded;
  }

  /** An entry of {@code frames} or {@code inlines} that siggen fails on when it reaches it. */
  static CrashFrame failing(RuleFailure failure) {
    Builder b = builder();
    b.failure = failure;
    return b.build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** An inlined caller of a frame: function, file and line only. */
  public static CrashFrame inline(String function, String file, Integer line) {
    return builder().function(function).file(file).line(line).build();
  }

  /** An inlined caller whose function's normalized form the caller keeps (see Builder). */
  public static CrashFrame inline(String function, NameForms forms, String file, Integer line) {
    return builder().function(function, forms).file(file).line(line).build();
  }

  /** An inlined caller whose function's name keeps its normalized form itself (see Builder). */
  public static CrashFrame inline(
      String function, NameForms.Slot keptIn, String file, Integer line) {
    return builder().function(function, keptIn).file(file).line(line).build();
  }

  public String function() {
    return function;
  }

  public String module() {
    return module;
  }

  public String file() {
    return file;
  }

  public List<CrashFrame> inlines() {
    return inlines;
  }

  /** Builder; every field is optional. */
  public static final class Builder {
    private String function;
    private Object functionForms;
    private String module;
    private String file;
    private Object line;
    private Object moduleOffset;
    private Object offset;
    // made on first use: most frames have neither (two lists per frame of every event)
    private List<CrashFrame> inlines;
    private List<String> unloadedModules;
    private RuleFailure failure;
    private Object badFunction;
    private Object badModule;
    private Object badFile;
    private Object badUnloaded;

    private Builder() {}

    public Builder function(String function) {
      this.function = function;
      this.functionForms = null;
      return this;
    }

    /**
     * The function with the place where the caller keeps its normalized form between events
     * (with a cached symbol page's name; null: none): the generator reads and fills it instead
     * of normalizing the name at every frame. The signature is the same as with {@code
     * function(function)}.
     */
    public Builder function(String function, NameForms forms) {
      this.function = function;
      this.functionForms = function == null ? null : forms;
      return this;
    }

    /**
     * The function with the name it was made from, which keeps its normalized form itself (a
     * cached page's name; null: none): no holder per name.
     */
    public Builder function(String function, NameForms.Slot keptIn) {
      this.function = function;
      this.functionForms = function == null ? null : keptIn;
      return this;
    }

    public Builder module(String module) {
      this.module = module;
      return this;
    }

    public Builder file(String file) {
      this.file = file;
      return this;
    }

    public Builder line(Integer line) {
      this.line = line == null ? null : Long.valueOf(line);
      return this;
    }

    /** The line as the JSON value it came with (Long, String, Double, Boolean or null). */
    Builder lineValue(Object line) {
      this.line = line;
      return this;
    }

    public Builder moduleOffset(String hex) {
      this.moduleOffset = hex;
      return this;
    }

    Builder moduleOffsetValue(Object value) {
      this.moduleOffset = value;
      return this;
    }

    /** The absolute address as siggen's schema carries it: a hex string such as "0x7fc6410". */
    public Builder offset(String hex) {
      this.offset = hex;
      return this;
    }

    Builder offsetValue(Object value) {
      this.offset = value;
      return this;
    }

    /** Adds an inlined caller; inlines come before the frame itself, innermost first. */
    public Builder addInline(CrashFrame inline) {
      if (inlines == null) {
        inlines = new ArrayList<>(2);
      }
      inlines.add(Objects.requireNonNull(inline, "inline"));
      return this;
    }

    /** Adds an entry of {@code unloaded_modules} (only the first one's name is used). */
    public Builder addUnloadedModule(String moduleName) {
      if (unloadedModules == null) {
        unloadedModules = new ArrayList<>(1);
      }
      unloadedModules.add(moduleName);
      return this;
    }

    Builder failure(RuleFailure failure) {
      this.failure = failure;
      return this;
    }

    Builder badFunction(Object value) {
      this.badFunction = value;
      return this;
    }

    Builder badModule(Object value) {
      this.badModule = value;
      return this;
    }

    Builder badFile(Object value) {
      this.badFile = value;
      return this;
    }

    Builder badUnloaded(Object value) {
      this.badUnloaded = value;
      return this;
    }

    public CrashFrame build() {
      return new CrashFrame(this);
    }
  }
}
