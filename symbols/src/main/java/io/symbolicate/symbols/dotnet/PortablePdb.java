package io.symbolicate.symbols.dotnet;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A Portable PDB (the .NET debug format of the Portable PDB spec over ECMA-335 metadata): its
 * {@code #Pdb} id, the Document and MethodDebugInformation tables with their sequence points, and
 * the CustomDebugInformation rows for embedded sources and Source Link. Every offset, index and
 * count is checked against the file before it is used; nothing is allocated from a claimed count.
 */
public final class PortablePdb {
  /** The largest embedded source inflated (symbolic's and Symbolicator's sources are smaller). */
  public static final long MAX_SOURCE_BYTES = 64L << 20;

  /** The longest document name assembled from its parts. */
  static final int MAX_NAME = 1 << 16;

  private final byte[] data;
  private final MetadataRoot root;
  private final Heaps heaps;
  private final MetadataTables tables;
  private final byte[] pdbId;
  private final int entryPoint;
  private List<Document> documents;

  private PortablePdb(byte[] data) {
    this.data = data;
    this.root = MetadataRoot.parse(data, 0, data.length);
    MetadataRoot.Stream pdb = root.stream("#Pdb");
    if (pdb == null) {
      throw new PortablePdbException(
          "ECMA-335 metadata without a #Pdb stream (an assembly, not a Portable PDB)");
    }
    BlobReader r = new BlobReader(data, pdb.offset(), pdb.length());
    pdbId = new byte[20];
    for (int i = 0; i < 20; i++) {
      pdbId[i] = (byte) r.u8();
    }
    entryPoint = r.u32();
    long referenced = (r.u32() & 0xffffffffL) | ((long) r.u32() << 32);
    int[] external = new int[64];
    for (int t = 0; t < 64; t++) {
      if ((referenced & (1L << t)) != 0) {
        long n = r.u32() & 0xffffffffL;
        if (n > MetadataTables.MAX_ROWS) {
          throw new PortablePdbException(
              "#Pdb stream claims " + n + " rows of table 0x" + Integer.toHexString(t));
        }
        external[t] = (int) n;
      }
    }
    MetadataRoot.Stream tableStream = root.stream("#~");
    if (tableStream == null) {
      tableStream = root.stream("#-");
    }
    if (tableStream == null) {
      throw new PortablePdbException("Portable PDB without a #~ table stream");
    }
    this.heaps = new Heaps(data, root);
    this.tables = new MetadataTables(data, tableStream, external);
  }

  MetadataTables tables() {
    return tables;
  }

  MetadataRoot root() {
    return root;
  }

  /** Whether the bytes start as ECMA-335 metadata ({@code BSJB}), as a Portable PDB does. */
  public static boolean looksLikePortablePdb(byte[] data) {
    return MetadataRoot.looksLikeMetadata(data);
  }

  /** Parses a Portable PDB; fails with {@link PortablePdbException} saying why. */
  public static PortablePdb parse(byte[] data) {
    return new PortablePdb(data);
  }

  /** The metadata version string ({@code PDB v1.0}). */
  public String version() {
    return root.version;
  }

  /** The 20 bytes of the PDB id: the GUID (as stored) and the 4-byte stamp. */
  public byte[] pdbId() {
    return pdbId.clone();
  }

  /**
   * The debug id as Sentry writes it: the PDB id's GUID, then its stamp as the age ({@code
   * 0c1033f7-8632-492e-91c6-c314b72e1920-e60b819d}); the PE that references this PDB has the
   * same (its CodeView GUID, and the stamp of its debug directory entry).
   */
  public String debugId() {
    byte[] guid = new byte[16];
    System.arraycopy(pdbId, 0, guid, 0, 16);
    long stamp = LittleEndian.u32(pdbId, 16);
    return debugId(guid, stamp);
  }

  static String debugId(byte[] storedGuid, long age) {
    String g = Guids.format(storedGuid);
    return age == 0 ? g : g + "-" + Long.toHexString(age).toLowerCase(Locale.ROOT);
  }

  /** The MethodDef token of the entry point, 0 when there is none. */
  public int entryPointToken() {
    return entryPoint;
  }

  /**
   * The most sequence points a table of this PDB may hold: each takes at least two bytes of its
   * blob, and methods share a blob only when their points are the same; eight times the file's
   * bytes leaves room for that and refuses thousands of rows naming one long blob.
   */
  long maxSequencePoints() {
    return 8L * data.length + (1 << 16);
  }

  /** The number of rows of MethodDebugInformation (one per MethodDef of the assembly). */
  public int methodCount() {
    return tables.rows(TableSchema.METHOD_DEBUG_INFORMATION);
  }

  public int documentCount() {
    return tables.rows(TableSchema.DOCUMENT);
  }

  /** Whether any method has sequence points (symbolic's {@code has_debug_info}). */
  public boolean hasDebugInfo() {
    int n = methodCount();
    for (int m = 1; m <= n; m++) {
      if (tables.index(TableSchema.METHOD_DEBUG_INFORMATION, m, 1) != 0) {
        return true;
      }
    }
    return false;
  }

  /** Document {@code row} (1-based). */
  public Document document(int row) {
    List<Document> docs = documents();
    if (row < 1 || row > docs.size()) {
      throw new PortablePdbException(
          "document " + row + " does not exist (" + docs.size() + " documents)");
    }
    return docs.get(row - 1);
  }

  /**
   * Every document, read once. Names are assembled from shared parts, so their total length is
   * bounded by the file's (64 characters a byte): a table of rows that all name one long part
   * is refused rather than built.
   */
  public List<Document> documents() {
    if (documents == null) {
      long budget = 64L * data.length + (1 << 20);
      long total = 0;
      List<Document> docs = new ArrayList<>();
      Map<Integer, String> languages = new HashMap<>(); // a few GUIDs named by every row
      for (int row = 1; row <= documentCount(); row++) {
        String name = documentName(tables.index(TableSchema.DOCUMENT, row, 0));
        total += name.length();
        if (total > budget) {
          throw new PortablePdbException(
              "document names add up to more than " + budget + " characters");
        }
        int guid = tables.index(TableSchema.DOCUMENT, row, 3);
        String lang = languages.get(guid);
        if (lang == null && !languages.containsKey(guid)) {
          lang = Guids.format(heaps.guid(guid));
          languages.put(guid, lang);
        }
        docs.add(new Document(row, name, lang, Guids.language(lang)));
      }
      documents = List.copyOf(docs);
    }
    return documents;
  }

  /** A document name blob: a separator byte, then blob indexes of the parts between them. */
  private String documentName(int blobOffset) {
    Heaps.Blob b = heaps.blob(blobOffset);
    BlobReader r = b.reader(data);
    int sepByte = r.u8();
    if (sepByte >= 0x80) {
      throw new PortablePdbException(
          "document name separator 0x" + Integer.toHexString(sepByte) + " is not ASCII");
    }
    String sep = sepByte == 0 ? "" : String.valueOf((char) sepByte);
    StringBuilder name = new StringBuilder();
    boolean firstPart = true;
    while (r.hasMore()) {
      int part = r.unsigned();
      if (!firstPart) {
        name.append(sep);
      }
      firstPart = false;
      if (part != 0) {
        Heaps.Blob p = heaps.blob(part);
        if (name.length() + p.length() > MAX_NAME) {
          throw new PortablePdbException("document name longer than " + MAX_NAME + " bytes");
        }
        name.append(heaps.utf8(p.offset(), p.length(), "document name part"));
      }
      if (name.length() > MAX_NAME) {
        throw new PortablePdbException("document name longer than " + MAX_NAME + " bytes");
      }
    }
    return name.toString();
  }

  /** The sequence points of method {@code row} (1-based MethodDef row); empty when it has none. */
  public List<SequencePoint> sequencePoints(int method) {
    if (method < 1 || method > methodCount()) {
      throw new PortablePdbException(
          "method " + method + " does not exist (" + methodCount() + " methods)");
    }
    int document = tables.index(TableSchema.METHOD_DEBUG_INFORMATION, method, 0);
    int blob = tables.index(TableSchema.METHOD_DEBUG_INFORMATION, method, 1);
    if (blob == 0) {
      return List.of();
    }
    Heaps.Blob b = heaps.blob(blob);
    try {
      return SequencePointDecoder.decode(b.reader(data), document);
    } catch (PortablePdbException e) {
      throw new PortablePdbException("method " + method + ": " + e.getMessage(), e);
    }
  }

  /** The bytes of a method's sequence-point blob, and its Document column (fuzz seeds). */
  byte[] sequencePointBlob(int method) {
    int blob = tables.index(TableSchema.METHOD_DEBUG_INFORMATION, method, 1);
    if (blob == 0) {
      return new byte[0];
    }
    Heaps.Blob b = heaps.blob(blob);
    byte[] out = new byte[b.length()];
    System.arraycopy(data, b.offset(), out, 0, b.length());
    return out;
  }

  int documentColumn(int method) {
    return tables.index(TableSchema.METHOD_DEBUG_INFORMATION, method, 0);
  }

  /** The CustomDebugInformation rows of one kind: parent (tag, row) and value blob. */
  record CustomDebugInfo(int parentTag, int parentRow, Heaps.Blob value) {}

  List<CustomDebugInfo> customDebugInformation(String kindGuid) {
    List<CustomDebugInfo> found = new ArrayList<>();
    int n = tables.rows(TableSchema.CUSTOM_DEBUG_INFORMATION);
    for (int i = 1; i <= n; i++) {
      String kind =
          Guids.format(heaps.guid(tables.index(TableSchema.CUSTOM_DEBUG_INFORMATION, i, 1)));
      if (!kindGuid.equals(kind)) {
        continue;
      }
      long parent = tables.cell(TableSchema.CUSTOM_DEBUG_INFORMATION, i, 0);
      Heaps.Blob value = heaps.blob(tables.index(TableSchema.CUSTOM_DEBUG_INFORMATION, i, 2));
      found.add(new CustomDebugInfo((int) (parent & 0x1f), (int) (parent >>> 5), value));
    }
    return found;
  }

  /**
   * The sources embedded in this PDB, in table order, each inflated (and size-checked). A
   * document's first embedded source counts; documents whose sources share one blob share its
   * inflated bytes.
   */
  public List<EmbeddedSource> embeddedSources() {
    List<EmbeddedSource> sources = new ArrayList<>();
    Map<Integer, byte[]> inflated = new HashMap<>();
    Set<Integer> seen = new HashSet<>();
    int documentTag = documentTag();
    for (CustomDebugInfo cdi : customDebugInformation(Guids.EMBEDDED_SOURCE)) {
      if (cdi.parentTag() != documentTag || !seen.add(cdi.parentRow())) {
        continue; // embedded sources belong to documents, one each; anything else is skipped
      }
      Document doc = document(cdi.parentRow());
      byte[] bytes = inflated.get(cdi.value().offset());
      if (bytes == null) {
        bytes = sourceBytes(cdi.value(), doc.name());
        inflated.put(cdi.value().offset(), bytes);
      }
      sources.add(EmbeddedSource.shared(doc.name(), bytes));
    }
    return sources;
  }

  private static int documentTag() {
    int[] tables = TableSchema.CODED_TABLES[TableSchema.HAS_CUSTOM_DEBUG_INFORMATION];
    for (int i = 0; i < tables.length; i++) {
      if (tables[i] == TableSchema.DOCUMENT) {
        return i;
      }
    }
    throw new IllegalStateException("no Document tag");
  }

  /** Embedded source blob: int32 format (0 raw, else the inflated size), then the bytes. */
  private byte[] sourceBytes(Heaps.Blob value, String name) {
    BlobReader r = value.reader(data);
    long format = r.u32();
    int at = r.position();
    int length = r.remaining();
    if (format == 0) {
      byte[] raw = new byte[length];
      System.arraycopy(data, at, raw, 0, length);
      return raw;
    }
    if (format < 0) {
      throw new PortablePdbException(
          "embedded source " + name + " has format " + format + " (negative)");
    }
    return Inflate.exactly(data, at, length, format, MAX_SOURCE_BYTES, "embedded source " + name);
  }

  /** The Source Link JSON documents of the module, as written (usually one). */
  public List<String> sourceLinkJson() {
    List<String> json = new ArrayList<>();
    for (CustomDebugInfo cdi : customDebugInformation(Guids.SOURCE_LINK)) {
      Heaps.Blob v = cdi.value();
      json.add(heaps.utf8(v.offset(), v.length(), "Source Link JSON"));
    }
    return json;
  }

  /** The Source Link mappings of this PDB (empty when it has none). */
  public SourceLinkMap sourceLinks() {
    return SourceLinkMap.parse(sourceLinkJson());
  }
}
