package io.symbolicate.symbols.dwarf;

/** The DWARF constants this reader uses (tags, attributes, forms, line program opcodes). */
final class Dw {
  private Dw() {}

  // tags
  static final int TAG_CLASS_TYPE = 0x02;
  static final int TAG_ENUMERATION_TYPE = 0x04;
  static final int TAG_LEXICAL_BLOCK = 0x0b;
  static final int TAG_COMPILE_UNIT = 0x11;
  static final int TAG_STRUCTURE_TYPE = 0x13;
  static final int TAG_UNION_TYPE = 0x17;
  static final int TAG_INLINED_SUBROUTINE = 0x1d;
  static final int TAG_SUBPROGRAM = 0x2e;
  static final int TAG_INTERFACE_TYPE = 0x38;
  static final int TAG_NAMESPACE = 0x39;
  static final int TAG_PARTIAL_UNIT = 0x3c;
  static final int TAG_TYPE_UNIT = 0x41;
  static final int TAG_SKELETON_UNIT = 0x4a;

  // attributes
  static final int AT_SIBLING = 0x01;
  static final int AT_NAME = 0x03;
  static final int AT_STMT_LIST = 0x10;
  static final int AT_LOW_PC = 0x11;
  static final int AT_HIGH_PC = 0x12;
  static final int AT_LANGUAGE = 0x13;
  static final int AT_COMP_DIR = 0x1b;
  static final int AT_PRODUCER = 0x25;
  static final int AT_ABSTRACT_ORIGIN = 0x31;
  static final int AT_DECLARATION = 0x3c;
  static final int AT_SPECIFICATION = 0x47;
  static final int AT_RANGES = 0x55;
  static final int AT_CALL_FILE = 0x58;
  static final int AT_CALL_LINE = 0x59;
  static final int AT_LINKAGE_NAME = 0x6e;
  static final int AT_STR_OFFSETS_BASE = 0x72;
  static final int AT_ADDR_BASE = 0x73;
  static final int AT_RNGLISTS_BASE = 0x74;
  static final int AT_DWO_NAME = 0x76;
  static final int AT_MIPS_LINKAGE_NAME = 0x2007;
  static final int AT_GNU_DWO_NAME = 0x2130;
  static final int AT_GNU_DWO_ID = 0x2131;
  static final int AT_GNU_RANGES_BASE = 0x2132;
  static final int AT_GNU_ADDR_BASE = 0x2133;

  // forms
  static final int FORM_ADDR = 0x01;
  static final int FORM_BLOCK2 = 0x03;
  static final int FORM_BLOCK4 = 0x04;
  static final int FORM_DATA2 = 0x05;
  static final int FORM_DATA4 = 0x06;
  static final int FORM_DATA8 = 0x07;
  static final int FORM_STRING = 0x08;
  static final int FORM_BLOCK = 0x09;
  static final int FORM_BLOCK1 = 0x0a;
  static final int FORM_DATA1 = 0x0b;
  static final int FORM_FLAG = 0x0c;
  static final int FORM_SDATA = 0x0d;
  static final int FORM_STRP = 0x0e;
  static final int FORM_UDATA = 0x0f;
  static final int FORM_REF_ADDR = 0x10;
  static final int FORM_REF1 = 0x11;
  static final int FORM_REF2 = 0x12;
  static final int FORM_REF4 = 0x13;
  static final int FORM_REF8 = 0x14;
  static final int FORM_REF_UDATA = 0x15;
  static final int FORM_INDIRECT = 0x16;
  static final int FORM_SEC_OFFSET = 0x17;
  static final int FORM_EXPRLOC = 0x18;
  static final int FORM_FLAG_PRESENT = 0x19;
  static final int FORM_STRX = 0x1a;
  static final int FORM_ADDRX = 0x1b;
  static final int FORM_REF_SUP4 = 0x1c;
  static final int FORM_STRP_SUP = 0x1d;
  static final int FORM_DATA16 = 0x1e;
  static final int FORM_LINE_STRP = 0x1f;
  static final int FORM_REF_SIG8 = 0x20;
  static final int FORM_IMPLICIT_CONST = 0x21;
  static final int FORM_LOCLISTX = 0x22;
  static final int FORM_RNGLISTX = 0x23;
  static final int FORM_REF_SUP8 = 0x24;
  static final int FORM_STRX1 = 0x25;
  static final int FORM_STRX2 = 0x26;
  static final int FORM_STRX3 = 0x27;
  static final int FORM_STRX4 = 0x28;
  static final int FORM_ADDRX1 = 0x29;
  static final int FORM_ADDRX2 = 0x2a;
  static final int FORM_ADDRX3 = 0x2b;
  static final int FORM_ADDRX4 = 0x2c;
  static final int FORM_GNU_ADDR_INDEX = 0x1f01;
  static final int FORM_GNU_STR_INDEX = 0x1f02;
  static final int FORM_GNU_REF_ALT = 0x1f20;
  static final int FORM_GNU_STRP_ALT = 0x1f21;

  // unit types (DWARF 5)
  static final int UT_COMPILE = 1;
  static final int UT_TYPE = 2;
  static final int UT_PARTIAL = 3;
  static final int UT_SKELETON = 4;
  static final int UT_SPLIT_COMPILE = 5;
  static final int UT_SPLIT_TYPE = 6;

  // line number content types (DWARF 5)
  static final int LNCT_PATH = 1;
  static final int LNCT_DIRECTORY_INDEX = 2;

  // languages that are not demangled (C)
  static boolean isC(int lang) {
    return lang == 0x01 || lang == 0x02 || lang == 0x0c || lang == 0x1d;
  }
}
