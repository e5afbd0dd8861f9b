package io.symbolicate.app.reprocess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.app.config.AppConfig;
import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.symbolication.platform.SymbolicatedEvents;
import io.symbolicate.testkit.events.SampleEvents;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ModuleReprocessingTest {
  private static SymbolicatedEvent output(CrashEvent e, ModuleResult... modules) {
    SymbolicatedEvent out = SymbolicatedEvents.builder(e, 0L).build();
    out.setModules(List.of(modules));
    return out;
  }

  private static ModuleResult module(String key, ModuleStatus status) {
    return ModuleResult.newBuilder().setIndex(0).setKey(key).setStatus(status).build();
  }

  @Test
  void anOutputMatchesWhenTheModuleHasAMendableStatusInTheScopeAndPlatform() {
    var sel =
        ModuleReprocessing.Selection.of(
            "global|native|a.pdb/01", ModuleReprocessing.Selection.MENDABLE, null, null);
    CrashEvent global = SampleEvents.nativeEvent("n-1");
    CrashEvent tenant = SampleEvents.nativeEvent("n-2");
    tenant.setScope("tenant-x");
    assertThat(sel.matches(output(global, module("a.pdb/01", ModuleStatus.missing)))).isTrue();
    assertThat(sel.matches(output(global, module("a.pdb/01", ModuleStatus.malformed)))).isTrue();
    assertThat(sel.matches(output(global, module("a.pdb/01", ModuleStatus.found)))).isFalse();
    assertThat(sel.matches(output(global, module("a.pdb/01", ModuleStatus.malformed_request))))
        .isFalse();
    assertThat(sel.matches(output(global, module("b.pdb/02", ModuleStatus.missing)))).isFalse();
    assertThat(sel.matches(output(tenant, module("a.pdb/01", ModuleStatus.missing))))
        .as("global symbols serve every scope")
        .isTrue();
    var ownScope =
        ModuleReprocessing.Selection.of(
            "tenant-y|native|a.pdb/01", ModuleReprocessing.Selection.MENDABLE, null, null);
    assertThat(ownScope.matches(output(tenant, module("a.pdb/01", ModuleStatus.missing))))
        .as("another scope")
        .isFalse();
    tenant.setScope("tenant-y");
    assertThat(ownScope.matches(output(tenant, module("a.pdb/01", ModuleStatus.missing)))).isTrue();
    assertThat(ownScope.matches(output(global, module("a.pdb/01", ModuleStatus.missing))))
        .as("a private upload does not serve the global scope")
        .isFalse();
    tenant.setScope("tenant-x");
    assertThat(
            sel.matches(
                output(SampleEvents.jsEvent("j-1"), module("a.pdb/01", ModuleStatus.missing))))
        .as("another platform")
        .isFalse();
    // listed twice and found once: its frames were symbolicated
    assertThat(
            sel.matches(
                output(
                    global,
                    module("a.pdb/01", ModuleStatus.missing),
                    module("a.pdb/01", ModuleStatus.found))))
        .isFalse();

    var anyScope =
        ModuleReprocessing.Selection.of("a.pdb/01", Set.of(ModuleStatus.missing), null, null);
    assertThat(anyScope.matches(output(tenant, module("a.pdb/01", ModuleStatus.missing)))).isTrue();
    assertThat(anyScope.matches(output(tenant, module("a.pdb/01", ModuleStatus.malformed))))
        .isFalse();
  }

  /** A .NET module (symbols.missing's platform dotnet) is missed by native events. */
  @Test
  void aDotnetModuleSelectsTheNativeEventsThatMissedIt() {
    String key = "integration.pdb/0C1033F78632492E91C6C314B72E1920E60B819D";
    for (String platform : List.of("dotnet", "D")) {
      var sel =
          ModuleReprocessing.Selection.of(
              "global|" + platform + "|" + key, ModuleReprocessing.Selection.MENDABLE, null, null);
      assertThat(sel.refs()).extracting(Object::toString).containsExactly("global|D|" + key);
      assertThat(
              sel.matches(
                  output(SampleEvents.nativeEvent("n-1"), module(key, ModuleStatus.missing))))
          .isTrue();
      assertThat(
              sel.matches(output(SampleEvents.jvmEvent("j-1"), module(key, ModuleStatus.missing))))
          .isFalse();
    }
  }

  @Test
  void aModuleIsScopePlatformAndKeyOrABareKey() {
    var missingKey =
        ModuleReprocessing.Selection.of(
            "tenant-x|javascript|abc", Set.of(ModuleStatus.missing), null, null);
    assertThat(missingKey)
        .extracting("scope", "platform", "module")
        .containsExactly("tenant-x", "javascript", "abc");
    var storeRef =
        ModuleReprocessing.Selection.of(
            "global|N|a.pdb/01", Set.of(ModuleStatus.missing), null, null);
    assertThat(storeRef)
        .extracting("scope", "platform", "module")
        .containsExactly("global", "native", "a.pdb/01");
    assertThat(storeRef.refs()).extracting(Object::toString).containsExactly("global|N|a.pdb/01");
    assertThat(missingKey.refs())
        .extracting(Object::toString)
        .containsExactly("tenant-x|J|abc", "global|J|abc");
    assertThat(
            ModuleReprocessing.Selection.of("a.pdb/01", Set.of(ModuleStatus.missing), null, null)
                .refs())
        .isEmpty();
    for (String bad :
        new String[] {
          "native|a.pdb/01",
          "global|windows|a.pdb/01",
          "a|b|c|d",
          "bad scope|native|x",
          "global|native|"
        }) {
      assertThatThrownBy(
              () -> ModuleReprocessing.Selection.of(bad, Set.of(ModuleStatus.missing), null, null))
          .as(bad)
          .isInstanceOf(IllegalArgumentException.class);
    }
  }

  @Test
  void theWindowIsChecked() {
    var now = Instant.parse("2026-11-25T00:00:00Z");
    assertThatThrownBy(
            () ->
                ModuleReprocessing.Selection.of(
                    "a", Set.of(ModuleStatus.missing), now, now.minusSeconds(1)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ends before");
    assertThatThrownBy(
            () ->
                ModuleReprocessing.Selection.of(
                    "a", Set.of(ModuleStatus.missing), Instant.parse("1960-01-01T00:00:00Z"), null))
        .isInstanceOf(IllegalArgumentException.class);
    var sel =
        ModuleReprocessing.Selection.of(
            "a", Set.of(ModuleStatus.missing), now, now.plusSeconds(10));
    assertThat(sel.inWindow(now.toEpochMilli())).isTrue();
    assertThat(sel.inWindow(now.toEpochMilli() + 10_000)).isTrue();
    assertThat(sel.inWindow(now.toEpochMilli() - 1)).isFalse();
    assertThat(sel.inWindow(now.toEpochMilli() + 10_001)).isFalse();
  }

  @Test
  void anAppThatTakesOnlyJsonIsRefused() {
    AppConfig cfg =
        AppConfig.defaults().set("bootstrap.servers", "127.0.0.1:9").set("input.format", "json");
    assertThatThrownBy(() -> new ModuleReprocessing(cfg, line -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("input.format=json");
    // --signatures-only too, as before the jobs were split
    assertThatThrownBy(() -> new SignatureReprocessing(cfg, line -> {}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("input.format=json");
  }

  @Test
  void aSelectionNeedsAModuleAndStatusesOtherThanFound() {
    assertThatThrownBy(
            () ->
                ModuleReprocessing.Selection.of(
                    " ", ModuleReprocessing.Selection.MENDABLE, null, null))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(
            () -> ModuleReprocessing.Selection.of("a", Set.of(ModuleStatus.found), null, null))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
