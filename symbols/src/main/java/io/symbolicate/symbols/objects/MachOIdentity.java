package io.symbolicate.symbols.objects;

import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;

/** The {@link ObjectIdentity} of a Mach-O file: the UUID is both code id and debug id. */
public final class MachOIdentity {
  private MachOIdentity() {}

  public static ObjectIdentity of(MachOFile macho) {
    Optional<byte[]> uuid = macho.uuid();
    Set<ObjectFeature> features = EnumSet.noneOf(ObjectFeature.class);
    if (macho.symtab()[1] > 0) {
      features.add(ObjectFeature.SYMTAB);
    }
    if (macho.sectionHeader("__debug_info").isPresent()) {
      features.add(ObjectFeature.DEBUG);
    }
    if (macho.sectionHeader("__eh_frame").isPresent()
        || macho.sectionHeader("__unwind_info").isPresent()
        || macho.sectionHeader("__debug_frame").isPresent()) {
      features.add(ObjectFeature.UNWIND);
    }
    return new ObjectIdentity(
        "macho",
        uuid.map(Hex::lower).orElse(null),
        ObjectIdentity.breakpadDebugId(uuid.orElse(new byte[16]), 0),
        macho.arch(),
        kind(macho),
        loadAddress(macho),
        features);
  }

  static ObjectKind kind(MachOFile macho) {
    return switch (macho.fileType()) {
      case MachOFile.MH_OBJECT -> ObjectKind.RELOCATABLE;
      case MachOFile.MH_EXECUTE, MachOFile.MH_DYLINKER -> ObjectKind.EXECUTABLE;
      case MachOFile.MH_DYLIB, MachOFile.MH_BUNDLE -> ObjectKind.LIBRARY;
      case MachOFile.MH_DSYM -> ObjectKind.DEBUG;
      case MachOFile.MH_CORE -> ObjectKind.DUMP;
      default -> ObjectKind.OTHER;
    };
  }

  /** The address of the {@code __TEXT} segment, 0 without one. */
  static long loadAddress(MachOFile macho) {
    for (MachOSegment s : macho.segments()) {
      if (s.name().equals("__TEXT")) {
        return s.vmAddress();
      }
    }
    return 0;
  }
}
