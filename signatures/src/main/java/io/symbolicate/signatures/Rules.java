package io.symbolicate.signatures;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/** The rules that adjust the signature after it is made, as in siggen's DEFAULT_RULESET. */
final class Rules {
  /** Signatures longer than this are cut to this length, ending in "...". */
  static final int SIGNATURE_MAX_LENGTH = 255;

  /** Abort messages longer than this are cut to this length, ending in "...". */
  static final int ABORT_MESSAGE_MAX_LENGTH = 80;

  /** An IPC channel error keeps this many characters. */
  static final int IPC_CHANNEL_ERROR_MAX_LENGTH = 100;

  /** An OOM allocation of at most this many bytes is "OOM | small". */
  static final long OOM_SMALL_BYTES = 262_144;

  private Rules() {}

  /** The whole pipeline, in siggen's order. */
  static List<Rule> defaultRuleset(SignatureLists lists) {
    SignatureGenerationRule generation = new SignatureGenerationRule(lists);
    return List.of(
        generation,
        new StackwalkerErrorSignatureRule(),
        new BadHardware(),
        new OOMSignature(),
        new AbortSignature(),
        new SignatureShutdownTimeout(),
        new SignatureRunWatchDog(generation),
        new SignatureIPCChannelError(),
        new SignatureIPCMessageName(),
        new StackOverflowSignature(),
        new HungProcess(),
        new SigPrintableCharsOnly(),
        new SigFixWhitespace(),
        new SigTruncate());
  }

  /** Appends minidump-stackwalk's status to an EMPTY signature. */
  static final class StackwalkerErrorSignatureRule extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return result.signature.startsWith("EMPTY") && PythonBuiltins.truthy(data.mdswStatusString);
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(name(), result.signature + "; " + data.mdswStatusString);
    }
  }

  /** Prepends "bad hardware" when the reason says the device returned bad data. */
  static final class BadHardware extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return data.reason != null && data.reason.contains("STATUS_DEVICE_DATA_ERROR");
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(name(), "bad hardware | " + result.signature);
    }
  }

  /** Prepends "OOM | small|large|unknown" to out-of-memory crashes. */
  static final class OOMSignature extends Rule {
    private static final List<String> FRAGMENTS =
        List.of(
            "NS_ABORT_OOM",
            "mozalloc_handle_oom",
            "CrashAtUnhandlableOOM",
            "AutoEnterOOMUnsafeRegion",
            "alloc::oom::oom");
    private static final List<String> REASONS =
        List.of("STATUS_FATAL_MEMORY_EXHAUSTION", "STATUS_NO_MEMORY");
    private static final List<String> LAST_ERRORS =
        List.of("ERROR_COMMITMENT_LIMIT", "ERROR_NOT_ENOUGH_MEMORY");

    @Override
    boolean predicate(CrashData data, Result result) {
      if (PythonBuiltins.truthy(data.oomAllocationSize)) {
        return true;
      }
      if (result.signature.isEmpty()) {
        return false;
      }
      for (String fragment : FRAGMENTS) {
        if (result.signature.contains(fragment)) {
          return true;
        }
      }
      CrashThread thread = data.crashingThreadData();
      if (thread != null && !thread.isObject) {
        // siggen: `if thread: thread.get(...)`; a null entry is skipped, a number fails the rule
        if (PythonBuiltins.truthy(thread.notAnObject)) {
          throw thread.getFailure();
        }
        thread = null;
      }
      if (thread != null
          && thread.lastErrorValue() != null
          && LAST_ERRORS.contains(thread.lastErrorValue())) {
        return true;
      }
      if (data.reason != null && REASONS.contains(data.reason)) {
        return true;
      }
      return "Reporting".equals(data.jsLargeAllocationFailure);
    }

    @Override
    void action(CrashData data, Result result) {
      if ("Reporting".equals(data.jsLargeAllocationFailure)) {
        result.setSignature(name(), "OOM | large | " + result.signature);
        return;
      }
      BigInteger size = PythonBuiltins.toIntOrNull(data.oomAllocationSize);
      if (size == null) {
        result.setSignature(name(), "OOM | unknown | " + result.signature);
      } else if (size.compareTo(BigInteger.valueOf(OOM_SMALL_BYTES)) <= 0) {
        result.setSignature(name(), "OOM | small");
      } else {
        result.setSignature(name(), "OOM | large | " + result.signature);
      }
    }
  }

  /** Prepends "Abort | <message>" with the message cleaned of file names and line numbers. */
  static final class AbortSignature extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return PythonBuiltins.truthy(data.abortMessage);
    }

    @Override
    void action(CrashData data, Result result) {
      String message = data.abortMessage;
      if (message.contains("###!!! ABORT: file ")) {
        result.setSignature(name(), "Abort | " + result.signature);
        return;
      }
      int at = message.indexOf("###!!! ABORT:");
      if (at >= 0) {
        message = message.substring(at + "###!!! ABORT:".length());
      }
      int file = message.indexOf(": file ");
      if (file >= 0) {
        message = message.substring(0, file);
      }
      if (message.contains("unable to find a usable font")) {
        int open = message.indexOf('(');
        if (open != -1) {
          int close = message.lastIndexOf(')');
          if (close != -1) {
            message = message.substring(0, open) + message.substring(close + 1);
          }
        }
      }
      message = PythonBuiltins.strip(FrameText.dropBadCharacters(message));
      if (message.length() > ABORT_MESSAGE_MAX_LENGTH) {
        message = message.substring(0, ABORT_MESSAGE_MAX_LENGTH - 3) + "...";
      }
      result.setSignature(name(), "Abort | " + message + " | " + result.signature);
    }
  }

  /** Replaces the signature with the AsyncShutdownTimeout phase and conditions. */
  static final class SignatureShutdownTimeout extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return PythonBuiltins.truthy(data.asyncShutdownTimeout);
    }

    @Override
    void action(CrashData data, Result result) {
      List<String> parts = new ArrayList<>();
      parts.add("AsyncShutdownTimeout");
      try {
        Object parsed = PythonJson.loads(data.asyncShutdownTimeout);
        if (!(parsed instanceof Map<?, ?> shutdown)) {
          throw new RuleFailure(
              "'" + PythonBuiltins.typeName(parsed) + "' object has no attribute 'get'");
        }
        parts.add(shutdown.get("phase") instanceof String phase ? phase : "(unknown)");
        List<String> conditions = new ArrayList<>();
        for (Object c : iterate(shutdown.get("conditions"))) {
          if (c instanceof Map<?, ?> m) {
            if (!m.containsKey("name")) {
              throw new KeyError("name");
            }
            conditions.add(PythonBuiltins.str(m.get("name")));
          } else {
            conditions.add(PythonBuiltins.str(c));
          }
        }
        if (conditions.isEmpty()) {
          parts.add("(none)");
        } else {
          conditions.sort(CODE_POINT_ORDER);
          parts.add(String.join(",", conditions));
        }
      } catch (PythonJson.DecodeError e) {
        parts.add("UNKNOWN");
        result.info(name(), "Error parsing AsyncShutdownTimeout: " + e.getMessage());
      } catch (KeyError e) {
        parts.add("UNKNOWN");
        result.info(
            name(), "Error parsing AsyncShutdownTimeout: " + PythonBuiltins.reprString(e.key));
      }
      result.info(
          name(),
          "Signature replaced with a Shutdown Timeout signature, was: \""
              + result.signature
              + "\"");
      result.setSignature(name(), String.join(" | ", parts));
    }

    /** Python's iteration of {@code value or []}. */
    private static List<?> iterate(Object value) {
      if (!PythonBuiltins.truthy(value)) {
        return List.of();
      }
      if (value instanceof List<?> list) {
        return list;
      }
      if (value instanceof Map<?, ?> map) {
        return new ArrayList<>(map.keySet());
      }
      if (value instanceof String s) {
        List<String> chars = new ArrayList<>();
        s.codePoints().forEach(cp -> chars.add(new String(Character.toChars(cp))));
        return chars;
      }
      throw new RuleFailure("'" + PythonBuiltins.typeName(value) + "' object is not iterable");
    }

    private static final class KeyError extends Exception {
      private static final long serialVersionUID = 1L;
      final String key;

      KeyError(String key) {
        super(key, null, false, false);
        this.key = key;
      }
    }
  }

  /** Python's string order: by code point. */
  static final Comparator<String> CODE_POINT_ORDER =
      (a, b) -> {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
          int ca = a.codePointAt(i);
          int cb = b.codePointAt(j);
          if (ca != cb) {
            return Integer.compare(ca, cb);
          }
          i += Character.charCount(ca);
          j += Character.charCount(cb);
        }
        return Boolean.compare(i < a.length(), j < b.length());
      };

  /** Shutdown hangs: signs thread 0 instead of the crashing thread, prefixed "shutdownhang". */
  static final class SignatureRunWatchDog extends Rule {
    private final SignatureGenerationRule generation;

    SignatureRunWatchDog(SignatureGenerationRule generation) {
      this.generation = generation;
    }

    @Override
    boolean predicate(CrashData data, Result result) {
      return result.signature.contains("RunWatchdog");
    }

    @Override
    void action(CrashData data, Result result) {
      generation.action(data.withCrashingThread(0), result);
      result.setSignature(name(), "shutdownhang | " + result.signature);
    }
  }

  /** Replaces the signature with the IPC channel error. */
  static final class SignatureIPCChannelError extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return PythonBuiltins.truthy(data.ipcChannelError);
    }

    @Override
    void action(CrashData data, Result result) {
      String process =
          data.additionalMinidumps.contains("upload_file_minidump_browser") ? "browser" : "content";
      String signature =
          "IPCError-"
              + process
              + " | "
              + PythonBuiltins.headCodePoints(data.ipcChannelError, IPC_CHANNEL_ERROR_MAX_LENGTH);
      result.info(name(), "IPC Channel Error stomped on signature");
      result.setSignature(name(), signature);
    }
  }

  /** Appends the IPC message name. */
  static final class SignatureIPCMessageName extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return PythonBuiltins.truthy(data.ipcMessageName);
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(name(), result.signature + " | IPC_Message_Name=" + data.ipcMessageName);
    }
  }

  /** Prepends "stackoverflow" when the reason says so. */
  static final class StackOverflowSignature extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return "EXCEPTION_STACK_OVERFLOW".equals(data.reason);
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(name(), "stackoverflow | " + result.signature);
    }
  }

  /** Prepends "hang: <type>" to hangs. */
  static final class HungProcess extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return data.hang != null;
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(
          name(), "hang: " + PythonBuiltins.str(data.hang) + " | " + result.signature);
    }
  }

  /** Keeps printable ASCII only (after stripping whitespace at both ends). */
  static final class SigPrintableCharsOnly extends Rule {
    @Override
    void action(CrashData data, Result result) {
      String original = result.signature;
      String stripped = PythonBuiltins.strip(original);
      StringBuilder sb = new StringBuilder(stripped.length());
      for (int i = 0; i < stripped.length(); i++) {
        if (PythonBuiltins.isPrintableAscii(stripped.charAt(i))) {
          sb.append(stripped.charAt(i));
        }
      }
      String signature = sb.toString();
      if (!signature.equals(original)) {
        result.setSignature(name(), signature);
        result.info(name(), "unprintable characters removed");
      }
    }
  }

  /** Trims, turns every whitespace character into a space, and collapses runs of them. */
  static final class SigFixWhitespace extends Rule {
    @Override
    void action(CrashData data, Result result) {
      String original = result.signature;
      String s = PythonBuiltins.strip(original);
      StringBuilder sb = new StringBuilder(s.length());
      int i = 0;
      while (i < s.length()) {
        char c = s.charAt(i);
        if (!PythonBuiltins.isSpace(c)) {
          sb.append(c);
          i++;
          continue;
        }
        int j = i;
        while (j < s.length() && PythonBuiltins.isSpace(s.charAt(j))) {
          j++;
        }
        sb.append(' ');
        i = j;
      }
      String signature = sb.toString();
      if (!signature.equals(original)) {
        result.setSignature(name(), signature);
      }
    }
  }

  /** Cuts signatures longer than {@link #SIGNATURE_MAX_LENGTH} characters. */
  static final class SigTruncate extends Rule {
    @Override
    boolean predicate(CrashData data, Result result) {
      return PythonBuiltins.codePointLength(result.signature) > SIGNATURE_MAX_LENGTH;
    }

    @Override
    void action(CrashData data, Result result) {
      result.setSignature(
          name(),
          PythonBuiltins.headCodePoints(result.signature, SIGNATURE_MAX_LENGTH - 3) + "...");
      result.info(name(), "SigTrunc: signature truncated due to length");
    }
  }
}
