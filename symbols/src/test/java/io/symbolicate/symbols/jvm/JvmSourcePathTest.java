package io.symbolicate.symbols.jvm;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The bundle URL of a frame's source, against Symbolicator's cases (symbolicator-proguard: its
 * {@code test_build_source_file_name}, and the frames of its {@code basic_source_lookup} and
 * {@code source_lookup_with_proguard} snapshots that get the context of the bundle file with that
 * URL, or none when the bundle has no such file).
 */
class JvmSourcePathTest {

  @Test
  void aSyntheticLambdaWithoutFileIsItsOuterClass() {
    assertThat(
            JvmSourcePath.of(
                "com.foo.bar.ui.activities.base.BaseActivity$$ExternalSyntheticLambda2", null))
        .isEqualTo("~/com/foo/bar/ui/activities/base/BaseActivity.jvm");
  }

  @Test
  void basicSourceLookupFramesFindMainActivity() {
    String main = "~/io/sentry/samples/MainActivity.jvm";
    assertThat(JvmSourcePath.of("io.sentry.samples.MainActivity", null)).isEqualTo(main);
    assertThat(JvmSourcePath.of("io.sentry.samples.MainActivity$InnerClass", "MainActivity.kt"))
        .isEqualTo(main);
    assertThat(JvmSourcePath.of("io.sentry.samples.MainActivity$AnotherInnerClass", null))
        .isEqualTo(main);
    assertThat(
            JvmSourcePath.of(
                "io.sentry.samples.MainActivity$AdditionalInnerClass", "MainActivity.kt"))
        .isEqualTo(main);
    // no extension: the file name says nothing, the outer class does
    assertThat(JvmSourcePath.of("io.sentry.samples.MainActivity$OneMoreInnerClass", "SourceFile"))
        .isEqualTo(main);
  }

  @Test
  void classesWithoutPackageAndFileNamesWithoutExtension() {
    assertThat(JvmSourcePath.of("OtherActivity", "OtherActivity.java"))
        .isEqualTo("~/OtherActivity.jvm");
    assertThat(JvmSourcePath.of("DifferentActivity", "DifferentActivity"))
        .isEqualTo("~/DifferentActivity.jvm");
  }

  @Test
  void aClassInAnotherClassesFileTakesTheFileName() {
    String ui = "io.sentry.samples.instrumentation.ui.";
    assertThat(JvmSourcePath.of(ui + "SomeService$InnerClassOfSomeService", "SomeService.java"))
        .isEqualTo("~/io/sentry/samples/instrumentation/ui/SomeService.jvm");
    assertThat(JvmSourcePath.of(ui + "EditActivity", "EditActivity.kt"))
        .isEqualTo("~/io/sentry/samples/instrumentation/ui/EditActivity.jvm");
    assertThat(
            JvmSourcePath.of(
                ui + "AnotherClassInSameFile$AnotherInnerClass", "AnotherClassInSameFile.java"))
        .isEqualTo("~/io/sentry/samples/instrumentation/ui/AnotherClassInSameFile.jvm");
  }

  @Test
  void aFileNameWithADollarIsNotAFileName() {
    // R8 writes R8$$SyntheticClass for synthesized classes
    assertThat(JvmSourcePath.of("io.sentry.samples.instrumentation.ui.g", "R8$$SyntheticClass"))
        .isEqualTo("~/io/sentry/samples/instrumentation/ui/g.jvm");
  }
}
