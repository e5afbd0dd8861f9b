package io.symbolicate.signatures;

/** One step of the signature pipeline: if {@link #predicate} holds, {@link #action} runs. */
abstract class Rule {
  /** The name siggen prefixes notes with: the rule's class name. */
  String name() {
    return getClass().getSimpleName();
  }

  boolean predicate(CrashData data, Result result) {
    return true;
  }

  abstract void action(CrashData data, Result result);
}
