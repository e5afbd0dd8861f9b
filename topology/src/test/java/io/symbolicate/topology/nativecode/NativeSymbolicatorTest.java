package io.symbolicate.topology.nativecode;

import static org.assertj.core.api.Assertions.assertThat;

import io.symbolicate.schema.CrashEvent;
import io.symbolicate.schema.NativeModule;
import io.symbolicate.topology.demo.SampleEvents;
import io.symbolicate.topology.store.ModuleRef;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The per-thread memo of validated module identities never changes what an event needs. */
class NativeSymbolicatorTest {

  private static CrashEvent withModules(String id, String scope, String debugFile, String debugId) {
    CrashEvent e = SampleEvents.nativeEvent(id);
    e.setScope(scope);
    List<NativeModule> mods = new ArrayList<>(e.getNative$().getModules());
    mods.set(0, NativeModule.newBuilder(mods.get(0)).setDebugFile(debugFile).setDebugId(debugId).build());
    e.getNative$().setModules(mods);
    return e;
  }

  @Test
  void modulesNeededFollowScopeFileAndIdAcrossEvents() {
    NativeSymbolicator step = new NativeSymbolicator();
    String id = "0D5E1A7C2B3A5D4C8E9F0A1B2C3D4E5F0";
    List<ModuleRef> a = step.modulesNeeded(withModules("1", "tenant-a", "crashy", id));
    assertThat(a).extracting(ModuleRef::scope).containsOnly("tenant-a");
    assertThat(a.get(0).key()).isEqualTo("crashy/" + id);
    // same identity, another scope: that scope's reference, never the memoised one
    assertThat(step.modulesNeeded(withModules("2", "tenant-b", "crashy", id)).get(0))
        .isEqualTo(new ModuleRef("tenant-b", a.get(0).kind(), "crashy/" + id));
    // same debug id with another file name: a new key
    assertThat(step.modulesNeeded(withModules("3", "tenant-a", "other.so", id)).get(0).key())
        .isEqualTo("other.so/" + id);
    // lower-case ids are normalised as before; invalid identities are still not needed at all
    assertThat(step.modulesNeeded(withModules("4", "tenant-a", "crashy", id.toLowerCase())).get(0).key())
        .isEqualTo("crashy/" + id);
    assertThat(step.modulesNeeded(withModules("5", "tenant-a", "../x", id))).hasSize(1)
        .extracting(ModuleRef::key).doesNotContain("../x/" + id);
    assertThat(step.modulesNeeded(withModules("6", "tenant-a", "crashy", "not-hex!"))).hasSize(1);
    // and back to the first: still right after the others went through the memo
    assertThat(step.modulesNeeded(withModules("7", "tenant-a", "crashy", id))).isEqualTo(a);
  }
}
