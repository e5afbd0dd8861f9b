package io.symbolicate.symbols.dwarf;

/** One attribute's value as read: its class of form and a number (reused, one per reader). */
final class AttrValue {
  static final int NONE = 0;
  static final int UDATA = 1;
  static final int SDATA = 2;
  static final int ADDR = 3;
  static final int ADDRX = 4;
  static final int STRING_INLINE = 5; // offset of the string in the unit's .debug_info
  static final int STRP = 6;
  static final int LINE_STRP = 7;
  static final int STRX = 8;
  static final int STRP_ALT = 9;
  static final int REF = 10; // absolute .debug_info offset in the unit's own file
  static final int REF_ALT = 11; // absolute .debug_info offset in the supplementary file
  static final int SEC_OFFSET = 12;
  static final int RNGLISTX = 13;
  static final int LOCLISTX = 14;
  static final int FLAG = 15;
  static final int BLOCK = 16;
  static final int SIG8 = 17;

  int kind;
  long value;

  void set(int kind, long value) {
    this.kind = kind;
    this.value = value;
  }

  void copy(AttrValue o) {
    kind = o.kind;
    value = o.value;
  }

  boolean present() {
    return kind != NONE;
  }

  boolean isConstant() {
    return kind == UDATA || kind == SDATA;
  }

  boolean isRef() {
    return kind == REF || kind == REF_ALT;
  }
}
