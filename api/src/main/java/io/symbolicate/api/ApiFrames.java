package io.symbolicate.api;

import io.symbolicate.schema.CrashEvent;

/**
 * Frame counts of an event of any platform, and its size in frames, stacks and modules (the
 * API's per-request limit and heap claim: an empty stack or an unused module costs objects in
 * the request and its answer too).
 */
final class ApiFrames {
  private ApiFrames() {}

  /** What a request holds, summed over its events. */
  record Size(long frames, long stacks, long modules) {
    static final Size ZERO = new Size(0, 0, 0);

    long total() {
      return frames + stacks + modules;
    }

    /** Over the per-request limit ({@link ApiException#itemsOver}). */
    boolean exceeds(long limit) {
      return ApiException.itemsOver(frames, stacks, modules, limit);
    }

    Size plus(Size o) {
      return new Size(frames + o.frames, stacks + o.stacks, modules + o.modules);
    }
  }

  static int count(CrashEvent e) {
    return (int) size(e).frames();
  }

  static Size size(CrashEvent e) {
    long frames = 0;
    long stacks = 0;
    long modules = 0;
    if (e.getNative$() != null) {
      for (var t : e.getNative$().getThreads()) {
        frames += t.getFrames().size();
      }
      stacks += e.getNative$().getThreads().size();
      modules += e.getNative$().getModules().size();
    }
    if (e.getJavascript() != null) {
      for (var x : e.getJavascript().getExceptions()) {
        frames += x.getFrames().size();
      }
      stacks += e.getJavascript().getExceptions().size();
      modules += e.getJavascript().getModules().size();
    }
    if (e.getJvm() != null) {
      for (var x : e.getJvm().getExceptions()) {
        frames += x.getFrames().size();
      }
      stacks += e.getJvm().getExceptions().size();
      modules += e.getJvm().getModules().size();
    }
    return new Size(frames, stacks, modules);
  }
}
