package io.symbolicate.api.nativecode;

import java.util.List;

/**
 * A parsed Mozilla symbolication request (v5: several jobs; v4: one).
 *
 * @param debug whether the response carries the {@code debug} block
 */
public record MozillaRequest(List<Job> jobs, boolean debug) {

  /** One job: a memory map and stacks of frames indexing into it. */
  public record Job(List<Module> memoryMap, List<List<Frame>> stacks) {}

  /** A memory-map entry, as sent: {@code [debug_filename, debug_id]}. */
  public record Module(String debugFile, String debugId) {
    /** The key of {@code found_modules}: the strings as sent. */
    public String key() {
      return debugFile + "/" + debugId;
    }
  }

  /**
   * A frame: module index (-1: outside every module) and offset; {@code text} is set instead of
   * the offset when v4 sent something that is not an integer (echoed back: a string as sent, a
   * number as its exact decimal value, which for an exponent is not always the text sent).
   */
  public record Frame(int moduleIndex, long offset, String text) {
    public boolean hasOffset() {
      return text == null;
    }
  }
}
