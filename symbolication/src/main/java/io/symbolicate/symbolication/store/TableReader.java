package io.symbolicate.symbolication.store;

/**
 * Exact reads of table records by their binary key ({@link TableKeys}): the streams app's
 * global store, or the API's local on-disk store. Implementations are safe for concurrent reads.
 */
@FunctionalInterface
public interface TableReader {
  /** The record's value, or null. */
  byte[] get(byte[] key);
}
