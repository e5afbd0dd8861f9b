package io.symbolicate.symbolication.minidump;

/** A file carried by reference could not be fetched: for good (gone, too large) or for now. */
public final class AttachmentUnavailableException extends Exception {
  private final boolean permanent;

  public AttachmentUnavailableException(boolean permanent, String message) {
    super(message);
    this.permanent = permanent;
  }

  public AttachmentUnavailableException(boolean permanent, String message, Throwable cause) {
    super(message, cause);
    this.permanent = permanent;
  }

  /** True when trying again cannot help (no such object, over the size limit, wrong checksum). */
  public boolean permanent() {
    return permanent;
  }
}
