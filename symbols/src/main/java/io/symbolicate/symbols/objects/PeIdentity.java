package io.symbolicate.symbols.objects;

import java.util.EnumSet;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The {@link ObjectIdentity} of a PE image, as Breakpad and Symbolicator name it: the code id is
 * {@code TimeDateStamp} and {@code SizeOfImage} ({@link PeFile#breakpadCodeId()}, lower-cased as
 * Symbolicator keeps code ids), the debug id the GUID and age of its PDB from the CodeView record
 * (all zeros without one).
 */
public final class PeIdentity {
  private PeIdentity() {}

  public static ObjectIdentity of(PeFile pe) {
    Optional<PeCodeView> cv = pe.codeView();
    Set<ObjectFeature> features = EnumSet.noneOf(ObjectFeature.class);
    if (!pe.exports().isEmpty()) {
      features.add(ObjectFeature.SYMTAB);
    }
    if (pe.sectionHeader(".debug_info").isPresent()) {
      features.add(ObjectFeature.DEBUG);
    }
    if (pe.hasExceptionDirectory()) {
      features.add(ObjectFeature.UNWIND);
    }
    return new ObjectIdentity(
        "pe",
        pe.breakpadCodeId().toLowerCase(Locale.ROOT),
        cv.map(PeCodeView::debugId).orElse(ObjectIdentity.breakpadDebugId(new byte[16], 0)),
        pe.arch(),
        pe.isDll() ? ObjectKind.LIBRARY : ObjectKind.EXECUTABLE,
        pe.imageBase(),
        features);
  }
}
