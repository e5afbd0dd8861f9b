package io.symbolicate.symbols.jvm;

import java.util.Arrays;

/**
 * An R8 {@code com.android.tools.r8.rewriteFrame} rule: when every condition holds (today only
 * {@code throws(Ldescriptor;)}), the actions run (today only {@code removeInnerFrames(n)}).
 * Conditions or actions we do not understand make the rule never match / do nothing, as R8's
 * retrace does for forward compatibility.
 */
public record RewriteRule(
    String[] throwsDescriptors, boolean hasUnknownCondition, int removeInnerFrames) {

  /** True when the rule applies to a trace whose exception has this JVM descriptor. */
  public boolean matches(String thrownDescriptor) {
    if (hasUnknownCondition || throwsDescriptors.length == 0) {
      return false;
    }
    for (String d : throwsDescriptors) {
      if (!d.equals(thrownDescriptor)) {
        return false;
      }
    }
    return true;
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RewriteRule r
        && r.hasUnknownCondition == hasUnknownCondition
        && r.removeInnerFrames == removeInnerFrames
        && Arrays.equals(r.throwsDescriptors, throwsDescriptors);
  }

  @Override
  public int hashCode() {
    return Arrays.hashCode(throwsDescriptors) * 31 + removeInnerFrames;
  }

  @Override
  public String toString() {
    return "RewriteRule"
        + Arrays.toString(throwsDescriptors)
        + "->removeInnerFrames("
        + removeInnerFrames
        + ")";
  }

  /** {@code java.lang.NullPointerException} to {@code Ljava/lang/NullPointerException;}. */
  public static String descriptorOf(String className) {
    return "L" + className.replace('.', '/') + ";";
  }
}
