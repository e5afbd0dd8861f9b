package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * siggen's JavaSignatureTool (a {@code java_stack_trace} string) and JavaExceptionSignatureTool
 * (a {@code java_exception} structure): the exception class, its description with addresses
 * masked, and the first frame without its line number.
 */
final class JavaSignatureTool {
  /** A signature longer than this drops the exception description. */
  static final int DESCRIPTION_MAX_LENGTH = 255;

  private static final Pattern LINE_NUMBER_KILLER = PythonRegex.compile("\\.java\\:\\d+\\)$");
  private static final Pattern HEX_ADDR_KILLER = PythonRegex.compile("@[0-9a-f]{8}");
  private static final String NOT_EXPECTED_TRACE = "EMPTY: Java stack trace not in expected format";
  private static final String NOT_EXPECTED_EXCEPTION =
      "EMPTY: Java exception not in expected format";

  private JavaSignatureTool() {}

  /** siggen's JavaSignatureTool.generate for a stack trace value (a string, or anything else). */
  static NativeSignatureTool.Generated fromStackTrace(Object source, String delimiter) {
    if (!(source instanceof String text)) {
      return new NativeSignatureTool.Generated(
          NOT_EXPECTED_TRACE,
          List.of("JavaSignatureTool: stack trace not in expected format"),
          List.of());
    }
    List<String> lines = PythonBuiltins.firstLines(text, 2);
    if (lines.isEmpty()) {
      return new NativeSignatureTool.Generated(
          NOT_EXPECTED_TRACE,
          List.of("JavaSignatureTool: stack trace not in expected format"),
          List.of());
    }
    List<String> notes = new ArrayList<>();
    String first = PythonBuiltins.strip(lines.get(0));
    String exceptionClass;
    String description;
    int colon = first.indexOf(':');
    if (colon >= 0) {
      exceptionClass = PythonBuiltins.strip(first.substring(0, colon));
      description =
          PythonBuiltins.strip(
              HEX_ADDR_KILLER.matcher(first.substring(colon + 1)).replaceAll("@<addr>"));
    } else {
      exceptionClass = first;
      description = "";
      notes.add("JavaSignatureTool: stack trace line 1 is not in the expected format");
    }
    String method;
    if (lines.size() > 1) {
      method = LINE_NUMBER_KILLER.matcher(PythonBuiltins.strip(lines.get(1))).replaceAll(".java)");
      if (method.isEmpty()) {
        notes.add("JavaSignatureTool: stack trace line 2 is empty");
      }
    } else {
      notes.add("JavaSignatureTool: stack trace line 2 is missing");
      method = "";
    }
    // siggen keeps an old quirk: without a trailing "<addr>", the description and the method
    // are joined by a space instead of the delimiter (bug 865142).
    String signature;
    if (description.endsWith("<addr>")) {
      signature = joinIgnoreEmpty(delimiter, exceptionClass, description, method);
    } else {
      signature =
          joinIgnoreEmpty(delimiter, exceptionClass, joinIgnoreEmpty(" ", description, method));
    }
    if (PythonBuiltins.codePointLength(signature) > DESCRIPTION_MAX_LENGTH) {
      signature = exceptionClass + delimiter + method;
      notes.add("JavaSignatureTool: dropped Java exception description due to length");
    }
    return new NativeSignatureTool.Generated(signature, notes, List.of());
  }

  private static String joinIgnoreEmpty(String delimiter, String... parts) {
    StringBuilder sb = new StringBuilder();
    for (String p : parts) {
      if (!p.isEmpty()) {
        if (sb.length() > 0) {
          sb.append(delimiter);
        }
        sb.append(p);
      }
    }
    return sb.toString();
  }

  /** siggen's JavaExceptionSignatureTool.normalize_frame. */
  static String normalizeFrame(JavaFrame frame) {
    String module = frame.module();
    String function = frame.function();
    String signature;
    boolean hasModule = module != null && !module.isEmpty();
    boolean hasFunction = function != null && !function.isEmpty();
    if (hasModule && hasFunction) {
      signature = module + "." + function;
    } else if (hasModule) {
      signature = module;
    } else if (hasFunction) {
      signature = function;
    } else {
      signature = "";
    }
    String filename = frame.filename();
    if (!signature.isEmpty() && filename != null && !filename.isEmpty()) {
      return signature + "(" + filename + ")";
    }
    return signature.isEmpty() ? "unknown" : signature;
  }

  /** siggen's JavaExceptionSignatureTool.generate; {@code null} is Python's None. */
  static NativeSignatureTool.Generated fromException(JavaException exception) {
    if (exception == null || exception.shape == JavaException.Shape.NOT_EXPECTED_FORMAT) {
      return new NativeSignatureTool.Generated(
          NOT_EXPECTED_EXCEPTION,
          List.of("JavaExceptionSignatureTool: value not in expected format"),
          List.of());
    }
    if (exception.shape == JavaException.Shape.RULE_FAILS) {
      throw new RuleFailure(exception.failure);
    }
    JavaStackTrace st = exception.first;
    String type = st.type();
    String module = st.module();
    String exceptionClass;
    if (module != null && !module.isEmpty() && type != null && !type.isEmpty()) {
      exceptionClass = module + "." + type;
    } else {
      exceptionClass = PythonBuiltins.str(type);
    }
    String signature;
    if (!st.frames().isEmpty()) {
      signature = exceptionClass + ": at " + normalizeFrame(st.frames().get(0));
    } else {
      signature = exceptionClass;
    }
    return new NativeSignatureTool.Generated(signature, List.of(), List.of());
  }
}
