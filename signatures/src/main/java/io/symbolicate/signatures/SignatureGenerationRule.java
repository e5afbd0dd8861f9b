package io.symbolicate.signatures;

import java.util.ArrayList;
import java.util.List;

/**
 * Makes the signature from the stack: from {@code java_stack_trace} if there is one, else from
 * {@code java_exception}, else (ours) from {@code js_exception}, else from the crashing thread's
 * native frames, normalized and walked with the frame lists. Sets the proto signature (all
 * normalized frames) for native and JavaScript stacks.
 */
final class SignatureGenerationRule extends Rule {
  private final NativeSignatureTool nativeTool;
  private final JsSignatureTool jsTool;

  SignatureGenerationRule(SignatureLists lists) {
    this.nativeTool = new NativeSignatureTool(lists);
    this.jsTool = new JsSignatureTool(lists);
  }

  NativeSignatureTool nativeTool() {
    return nativeTool;
  }

  @Override
  void action(CrashData data, Result result) {
    if (PythonBuiltins.truthy(data.javaStackTrace)) {
      result.debug(name(), "using JavaSignatureTool");
      apply(result, JavaSignatureTool.fromStackTrace(data.javaStackTrace, ": "), true);
      return;
    }
    if (data.javaException != null) {
      result.debug(name(), "using JavaExceptionSignatureTool");
      apply(result, JavaSignatureTool.fromException(data.javaException), true);
      return;
    }
    if (data.jsExceptionFailure != null) {
      result.debug(name(), "using JsSignatureTool");
      throw new RuleFailure("ValueError", data.jsExceptionFailure);
    }
    if (data.jsException != null) {
      result.debug(name(), "using JsSignatureTool");
      JsSignatureTool.JsGenerated js = jsTool.generate(data.jsException, result.debugging());
      if (!js.normalizedFrames().isEmpty()) {
        result.protoSignature = String.join(" | ", js.normalizedFrames());
        result.normalizedFrames = js.normalizedFrames();
      }
      apply(
          result, new NativeSignatureTool.Generated(js.signature(), js.notes(), js.debug()), false);
      return;
    }
    result.debug(name(), "using CSignatureTool");
    List<String> cutNotes = new ArrayList<>();
    List<String> frames;
    try {
      frames =
          nativeTool.createFrameList(
              data.crashingThreadData(), "Windows NT".equals(data.os), cutNotes);
    } catch (RuleFailure e) {
      if (e.pythonType.equals("IndexError") || e.pythonType.equals("KeyError")) {
        // siggen catches these around the frame list and calls result.note(), which does not
        // exist: the rule fails with that AttributeError instead
        throw new RuleFailure("AttributeError", "'Result' object has no attribute 'note'");
      }
      throw e;
    }
    NativeSignatureTool.Generated generated =
        nativeTool.generate(frames, data.crashingThread, result.debugging());
    if (!frames.isEmpty()) {
      result.protoSignature = String.join(" | ", frames);
      result.normalizedFrames = frames;
    }
    for (String note : cutNotes) {
      result.info(name(), note);
    }
    apply(result, generated, false);
  }

  private void apply(Result result, NativeSignatureTool.Generated generated, boolean alwaysSet) {
    for (String note : generated.notes()) {
      result.info(name(), note);
    }
    for (String note : generated.debugNotes()) {
      result.debug(name(), note);
    }
    if (alwaysSet || !generated.signature().isEmpty()) {
      result.setSignature(name(), generated.signature());
    }
  }
}
