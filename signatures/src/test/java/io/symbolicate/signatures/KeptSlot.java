package io.symbolicate.signatures;

/** A name's own slot for one kept value, as a cached page's name has (SharedUtf8.keep). */
final class KeptSlot implements NameForms.Slot {
  private Object kept;

  @Override
  public Object kept() {
    return kept;
  }

  @Override
  public void keep(Object value) {
    kept = value;
  }
}
