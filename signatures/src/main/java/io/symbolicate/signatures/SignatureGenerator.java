package io.symbolicate.signatures;

import java.util.List;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Generates crash signatures with Socorro's semantics (siggen's DEFAULT_RULESET) plus our
 * JavaScript rule. Thread-safe; build one per set of lists and share it. A rule that fails on
 * odd data leaves a note ("<Rule>: Rule failed: ...") and the next rules run, as in siggen;
 * {@link #generate} never throws for any {@link CrashData}.
 */
public final class SignatureGenerator {
  private static final Logger LOG = LoggerFactory.getLogger(SignatureGenerator.class);

  private final List<Rule> pipeline;

  public SignatureGenerator(SignatureLists lists) {
    this.pipeline = Rules.defaultRuleset(lists);
  }

  /** With the module's small generic lists. */
  public static SignatureGenerator withDefaultLists() {
    return new SignatureGenerator(SignatureLists.defaults());
  }

  /** The signature, its notes and the rules' debug log (what {@code signify --verbose} prints). */
  public SignatureResult generate(CrashData data) {
    return run(data, new Result(true)).toPublic();
  }

  /**
   * The same signature and notes without the debug log (empty): the stream's path, which
   * stores no debug lines, so builds none (a line per rule and per frame).
   */
  public SignatureResult generateWithoutDebugLog(CrashData data) {
    return run(data, new Result(false)).toPublic();
  }

  /** Notes of what reading the input skipped or cut come first, named for the reader. */
  static final String INPUT_NOTE_PREFIX = "CrashData";

  Result run(CrashData data, Result result) {
    for (String note : data.inputNotes) {
      result.info(INPUT_NOTE_PREFIX, note);
    }
    for (Rule rule : pipeline) {
      runRule(rule, data, result);
    }
    return result;
  }

  static void runRule(Rule rule, CrashData data, Result result) {
    try {
      if (rule.predicate(data, result)) {
        rule.action(data, result);
      }
    } catch (RuleFailure e) {
      result.info(rule.name(), "Rule failed: " + e.getMessage());
    } catch (RuntimeException | StackOverflowError e) {
      LOG.warn("signature rule {} failed", rule.name(), e);
      result.info(rule.name(), "Rule failed: " + e);
    }
  }
}
