package io.symbolicate.symbols.dotnet;

/**
 * The columns of every ECMA-335 table (II.22) and of the Portable PDB tables (0x30..0x37), as
 * needed to size rows: a table's position in the {@code #~} stream depends on the sizes of all
 * tables before it, so each must be known even when only the debug tables are read.
 */
final class TableSchema {
  private TableSchema() {}

  // Column kinds: 0..63 an index into that table, CODED + n coded index n, then fixed and heaps.
  static final int CODED = 100;
  static final int U16 = 200;
  static final int U32 = 201;
  static final int STRING = 202;
  static final int GUID = 203;
  static final int BLOB = 204;

  static final int MODULE = 0x00;
  static final int TYPE_REF = 0x01;
  static final int TYPE_DEF = 0x02;
  static final int FIELD = 0x04;
  static final int METHOD_DEF = 0x06;
  static final int PARAM = 0x08;
  static final int INTERFACE_IMPL = 0x09;
  static final int MEMBER_REF = 0x0A;
  static final int DECL_SECURITY = 0x0E;
  static final int STAND_ALONE_SIG = 0x11;
  static final int EVENT = 0x14;
  static final int PROPERTY = 0x17;
  static final int MODULE_REF = 0x1A;
  static final int TYPE_SPEC = 0x1B;
  static final int ASSEMBLY = 0x20;
  static final int ASSEMBLY_REF = 0x23;
  static final int FILE = 0x26;
  static final int EXPORTED_TYPE = 0x27;
  static final int MANIFEST_RESOURCE = 0x28;
  static final int GENERIC_PARAM = 0x2A;
  static final int METHOD_SPEC = 0x2B;
  static final int GENERIC_PARAM_CONSTRAINT = 0x2C;
  static final int DOCUMENT = 0x30;
  static final int METHOD_DEBUG_INFORMATION = 0x31;
  static final int LOCAL_SCOPE = 0x32;
  static final int LOCAL_VARIABLE = 0x33;
  static final int LOCAL_CONSTANT = 0x34;
  static final int IMPORT_SCOPE = 0x35;
  static final int STATE_MACHINE_METHOD = 0x36;
  static final int CUSTOM_DEBUG_INFORMATION = 0x37;

  /** Coded index kinds (II.24.2.6): the tables each tag value names; -1 for an unused tag. */
  static final int[][] CODED_TABLES = {
    /* 0 TypeDefOrRef */ {TYPE_DEF, TYPE_REF, TYPE_SPEC},
    /* 1 HasConstant */ {FIELD, PARAM, PROPERTY},
    /* 2 HasCustomAttribute */ {
      METHOD_DEF,
      FIELD,
      TYPE_REF,
      TYPE_DEF,
      PARAM,
      INTERFACE_IMPL,
      MEMBER_REF,
      MODULE,
      DECL_SECURITY,
      PROPERTY,
      EVENT,
      STAND_ALONE_SIG,
      MODULE_REF,
      TYPE_SPEC,
      ASSEMBLY,
      ASSEMBLY_REF,
      FILE,
      EXPORTED_TYPE,
      MANIFEST_RESOURCE,
      GENERIC_PARAM,
      GENERIC_PARAM_CONSTRAINT,
      METHOD_SPEC
    },
    /* 3 HasFieldMarshal */ {FIELD, PARAM},
    /* 4 HasDeclSecurity */ {TYPE_DEF, METHOD_DEF, ASSEMBLY},
    /* 5 MemberRefParent */ {TYPE_DEF, TYPE_REF, MODULE_REF, METHOD_DEF, TYPE_SPEC},
    /* 6 HasSemantics */ {EVENT, PROPERTY},
    /* 7 MethodDefOrRef */ {METHOD_DEF, MEMBER_REF},
    /* 8 MemberForwarded */ {FIELD, METHOD_DEF},
    /* 9 Implementation */ {FILE, ASSEMBLY_REF, EXPORTED_TYPE},
    /* 10 CustomAttributeType */ {-1, -1, METHOD_DEF, MEMBER_REF, -1},
    /* 11 ResolutionScope */ {MODULE, MODULE_REF, ASSEMBLY_REF, TYPE_REF},
    /* 12 TypeOrMethodDef */ {TYPE_DEF, METHOD_DEF},
    /* 13 HasCustomDebugInformation */ {
      METHOD_DEF,
      FIELD,
      TYPE_REF,
      TYPE_DEF,
      PARAM,
      INTERFACE_IMPL,
      MEMBER_REF,
      MODULE,
      DECL_SECURITY,
      PROPERTY,
      EVENT,
      STAND_ALONE_SIG,
      MODULE_REF,
      TYPE_SPEC,
      ASSEMBLY,
      ASSEMBLY_REF,
      FILE,
      EXPORTED_TYPE,
      MANIFEST_RESOURCE,
      GENERIC_PARAM,
      GENERIC_PARAM_CONSTRAINT,
      METHOD_SPEC,
      DOCUMENT,
      LOCAL_SCOPE,
      LOCAL_VARIABLE,
      LOCAL_CONSTANT,
      IMPORT_SCOPE
    },
  };

  static final int HAS_CUSTOM_DEBUG_INFORMATION = 13;

  /** The tag bits of each coded index kind. */
  static final int[] CODED_BITS = {2, 2, 5, 1, 2, 3, 1, 1, 1, 2, 3, 2, 1, 5};

  private static final int C = CODED;

  /** Columns by table number; null for numbers no table has. */
  static final int[][] COLUMNS = new int[64][];

  static {
    COLUMNS[0x00] = new int[] {U16, STRING, GUID, GUID, GUID};
    COLUMNS[0x01] = new int[] {C + 11, STRING, STRING};
    COLUMNS[0x02] = new int[] {U32, STRING, STRING, C + 0, FIELD, METHOD_DEF};
    COLUMNS[0x03] = new int[] {FIELD};
    COLUMNS[0x04] = new int[] {U16, STRING, BLOB};
    COLUMNS[0x05] = new int[] {METHOD_DEF};
    COLUMNS[0x06] = new int[] {U32, U16, U16, STRING, BLOB, PARAM};
    COLUMNS[0x07] = new int[] {PARAM};
    COLUMNS[0x08] = new int[] {U16, U16, STRING};
    COLUMNS[0x09] = new int[] {TYPE_DEF, C + 0};
    COLUMNS[0x0A] = new int[] {C + 5, STRING, BLOB};
    COLUMNS[0x0B] = new int[] {U16, C + 1, BLOB};
    COLUMNS[0x0C] = new int[] {C + 2, C + 10, BLOB};
    COLUMNS[0x0D] = new int[] {C + 3, BLOB};
    COLUMNS[0x0E] = new int[] {U16, C + 4, BLOB};
    COLUMNS[0x0F] = new int[] {U16, U32, TYPE_DEF};
    COLUMNS[0x10] = new int[] {U32, FIELD};
    COLUMNS[0x11] = new int[] {BLOB};
    COLUMNS[0x12] = new int[] {TYPE_DEF, EVENT};
    COLUMNS[0x13] = new int[] {EVENT};
    COLUMNS[0x14] = new int[] {U16, STRING, C + 0};
    COLUMNS[0x15] = new int[] {TYPE_DEF, PROPERTY};
    COLUMNS[0x16] = new int[] {PROPERTY};
    COLUMNS[0x17] = new int[] {U16, STRING, BLOB};
    COLUMNS[0x18] = new int[] {U16, METHOD_DEF, C + 6};
    COLUMNS[0x19] = new int[] {TYPE_DEF, C + 7, C + 7};
    COLUMNS[0x1A] = new int[] {STRING};
    COLUMNS[0x1B] = new int[] {BLOB};
    COLUMNS[0x1C] = new int[] {U16, C + 8, STRING, MODULE_REF};
    COLUMNS[0x1D] = new int[] {U32, FIELD};
    COLUMNS[0x1E] = new int[] {U32, U32};
    COLUMNS[0x1F] = new int[] {U32};
    COLUMNS[0x20] = new int[] {U32, U16, U16, U16, U16, U32, BLOB, STRING, STRING};
    COLUMNS[0x21] = new int[] {U32};
    COLUMNS[0x22] = new int[] {U32, U32, U32};
    COLUMNS[0x23] = new int[] {U16, U16, U16, U16, U32, BLOB, STRING, STRING, BLOB};
    COLUMNS[0x24] = new int[] {U32, ASSEMBLY_REF};
    COLUMNS[0x25] = new int[] {U32, U32, U32, ASSEMBLY_REF};
    COLUMNS[0x26] = new int[] {U32, STRING, BLOB};
    COLUMNS[0x27] = new int[] {U32, U32, STRING, STRING, C + 9};
    COLUMNS[0x28] = new int[] {U32, U32, STRING, C + 9};
    COLUMNS[0x29] = new int[] {TYPE_DEF, TYPE_DEF};
    COLUMNS[0x2A] = new int[] {U16, U16, C + 12, STRING};
    COLUMNS[0x2B] = new int[] {C + 7, BLOB};
    COLUMNS[0x2C] = new int[] {GENERIC_PARAM, C + 0};
    COLUMNS[DOCUMENT] = new int[] {BLOB, GUID, BLOB, GUID};
    COLUMNS[METHOD_DEBUG_INFORMATION] = new int[] {DOCUMENT, BLOB};
    COLUMNS[LOCAL_SCOPE] =
        new int[] {METHOD_DEF, IMPORT_SCOPE, LOCAL_VARIABLE, LOCAL_CONSTANT, U32, U32};
    COLUMNS[LOCAL_VARIABLE] = new int[] {U16, U16, STRING};
    COLUMNS[LOCAL_CONSTANT] = new int[] {STRING, BLOB};
    COLUMNS[IMPORT_SCOPE] = new int[] {IMPORT_SCOPE, BLOB};
    COLUMNS[STATE_MACHINE_METHOD] = new int[] {METHOD_DEF, METHOD_DEF};
    COLUMNS[CUSTOM_DEBUG_INFORMATION] = new int[] {C + HAS_CUSTOM_DEBUG_INFORMATION, GUID, BLOB};
  }
}
