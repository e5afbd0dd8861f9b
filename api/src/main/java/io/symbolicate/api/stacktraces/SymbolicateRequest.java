package io.symbolicate.api.stacktraces;

import java.util.List;
import java.util.Map;

/**
 * A {@code POST /symbolicate} body as Symbolicator reads it ({@code SymbolicateStacktraces}):
 * stack traces of raw frames, the process's modules, and the options. Validated by {@link
 * SymbolicateRequestReader}; the raw JSON of each frame is kept to be echoed back, as Symbolicator
 * echoes a frame's fields.
 *
 * @param applySourceContext {@code options.apply_source_context} (default true): whether {@link
 *     FrameContext} adds {@code pre_context}/{@code context_line}/{@code post_context} where the
 *     sources are at hand
 */
record SymbolicateRequest(
    List<Stacktrace> stacktraces, List<Module> modules, boolean applySourceContext, Long signal) {

  /** One stack: its registers as sent (name to value), its frames. */
  record Stacktrace(
      Long threadId,
      String threadName,
      Boolean isRequesting,
      Map<String, Long> registers,
      List<Frame> frames) {}

  /**
   * A raw frame. {@code moduleIndex} is the N of {@code addr_mode: "rel:N"} (then {@code
   * instructionAddr} is relative to that module), or -1 for absolute addresses.
   *
   * @param adjust {@code adjust_instruction_addr} (null: Symbolicator's automatic rule, every
   *     frame but the first is a return address)
   * @param functionId the .NET method (MethodDef row), or null
   */
  record Frame(
      long instructionAddr,
      int moduleIndex,
      String addrMode,
      Long functionId,
      Boolean adjust,
      String trust,
      String packageName) {
    boolean relative() {
      return moduleIndex >= 0;
    }
  }

  /** A module ({@code RawObjectInfo}); {@code debugId} as sent. */
  record Module(
      String type,
      String codeId,
      String codeFile,
      String debugId,
      String debugFile,
      long imageAddr,
      Long imageSize) {
    boolean dotnet() {
      return "pe_dotnet".equals(type);
    }
  }
}
