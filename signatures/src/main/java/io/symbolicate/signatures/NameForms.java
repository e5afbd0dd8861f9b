package io.symbolicate.signatures;

/**
 * The normalized form the signature generator made of a function name, for a caller that keeps
 * it with the name between events (the stream keeps one per name of a cached symbol page): a
 * warm function is then normalized once while its page is cached instead of at every frame that
 * carries it. Small on purpose (the page's size estimate pays for one per name): one form, with
 * the lists and language that made it; a form of other lists or the other language is made
 * again and replaces it. Shared by threads: the form is one immutable value, written whole; a
 * thread that does not see another's write normalizes the name again.
 */
public final class NameForms {
  // issue 48: a page name's form is kept in the name's own slot (Slot), not in a holder of its
  // own that the name points to: the page's names are old objects spread over the heap, and each
  // object read on the way to the form is a cache miss per frame (name, holder, form; the
  // holder's miss was most of the ~9% of the stream thread that profiles put on CrashFrame.line)
  private volatile Made made;

  /**
   * A name that keeps one value of a consumer's with it (the stream: a cached page's name), in
   * which the generator keeps the name's form itself, without a NameForms between them.
   */
  public interface Slot {
    /** The value kept, or null; it may be another consumer's. */
    Object kept();

    /** Keeps {@code value}, replacing any. */
    void keep(Object value);
  }

  // with the lists that made it: another generator's lists may normalize the name differently
  // (the line-number list decides whether a form can be kept at all)
  private record Made(SignatureLists lists, boolean rust, String form) {}

  /** The form {@code lists} made of the name for that language, or null when none is kept. */
  String normalized(SignatureLists lists, boolean isRust) {
    return formOf(made, lists, isRust);
  }

  void keep(SignatureLists lists, boolean isRust, String form) {
    made = new Made(lists, isRust, form);
  }

  /**
   * The form kept in {@code slot}: a NameForms or a {@link Slot} (null when none is kept).
   */
  static String normalized(Object slot, SignatureLists lists, boolean isRust) {
    if (slot instanceof NameForms forms) {
      return forms.normalized(lists, isRust);
    }
    return slot instanceof Slot name ? formOf(name.kept(), lists, isRust) : null;
  }

  /** Keeps the form in {@code slot} (see {@link #normalized(Object, SignatureLists, boolean)}). */
  static void keep(Object slot, SignatureLists lists, boolean isRust, String form) {
    if (slot instanceof NameForms forms) {
      forms.keep(lists, isRust, form);
    } else if (slot instanceof Slot name) {
      // made right after the form: the record and its String share cache lines when read back
      name.keep(new Made(lists, isRust, form));
    }
  }

  private static String formOf(Object kept, SignatureLists lists, boolean isRust) {
    return kept instanceof Made m && m.lists == lists && m.rust == isRust ? m.form : null;
  }
}
