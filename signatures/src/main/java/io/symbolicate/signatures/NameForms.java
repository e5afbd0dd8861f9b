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
  // with the lists that made it: another generator's lists may normalize the name differently
  // (the line-number list decides whether a form can be kept at all)
  private volatile Made made;

  private record Made(SignatureLists lists, boolean rust, String form) {}

  /** The form {@code lists} made of the name for that language, or null when none is kept. */
  String normalized(SignatureLists lists, boolean isRust) {
    Made m = made;
    return m != null && m.lists == lists && m.rust == isRust ? m.form : null;
  }

  void keep(SignatureLists lists, boolean isRust, String form) {
    made = new Made(lists, isRust, form);
  }
}
