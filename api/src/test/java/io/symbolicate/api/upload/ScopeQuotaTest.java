package io.symbolicate.api.upload;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.symbolicate.symbols.id.SymbolLayout;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upload.dir.max.scope.bytes} on a directory store: a scope's stored files (and,
 * separately, its staged parts) stay within the quota; an upload past it is 507 {@code 1007}
 * naming the quota and the usage, and leaves nothing staged or stored; other scopes are not
 * counted; a replaced file counts once.
 */
class ScopeQuotaTest {
  @TempDir Path tmp;
  Path dir;
  int bodies;

  /** Places the assembled file as it is, under the scope's folder. */
  static final UploadFormat AS_IS =
      new UploadFormat() {
        @Override
        public String stagingName() {
          return "quota";
        }

        @Override
        public List<Placement> place(String scope, String id, Path file, Path work) {
          return List.of(
              new Placement(
                  SymbolLayout.scopePrefix(scope) + "q/" + id,
                  file,
                  new ModuleRef(scope, TableKind.NATIVE, id)));
        }
      };

  UploadService service(long quota) throws IOException {
    dir = Files.createDirectories(tmp.resolve("symbols"));
    UploadStore symbols = new DirectoryUploadStore(dir);
    UploadStore staging = new DirectoryUploadStore(dir.resolve("upload-staging"));
    return new UploadService(symbols, staging, m -> {}, UploadLimits.defaults())
        .withScopeQuota(quota, "upload-staging/");
  }

  Path body(int bytes) throws IOException {
    Path p = Files.createDirectories(tmp.resolve("bodies")).resolve("b" + bodies++);
    Files.write(p, new byte[bytes]);
    return p;
  }

  List<String> files() throws IOException {
    List<String> out = new ArrayList<>();
    try (Stream<Path> s = Files.walk(dir)) {
      s.filter(Files::isRegularFile).forEach(p -> out.add(dir.relativize(p).toString()));
    }
    return out;
  }

  @Test
  void storedFilesStayWithinTheQuotaAndARefusalLeavesNothing() throws Exception {
    UploadService s = service(1000);
    assertThat(s.receive("acme", AS_IS, "a", 0, 1, body(600))).hasSize(1);
    assertThat(s.receive("acme", AS_IS, "b", 0, 1, body(400))).hasSize(1); // exactly 1000
    assertThatThrownBy(() -> s.receive("acme", AS_IS, "c", 0, 1, body(1)))
        .isInstanceOfSatisfying(
            UploadError.class,
            e -> {
              assertThat(e.status()).isEqualTo(507);
              assertThat(e.code()).isEqualTo(UploadError.QUOTA);
              assertThat(e.getMessage())
                  .contains("upload.dir.max.scope.bytes", "1000 bytes", "take 1000", "add 1");
            });
    assertThat(files())
        .containsExactlyInAnyOrder(
            "scopes/acme/q/a",
            "scopes/acme/q/b",
            "upload-staging/acme/quota.a.assembled",
            "upload-staging/acme/quota.b.assembled");
    // another scope has its own quota; a file replaced by a smaller one counts once
    assertThat(s.receive("other", AS_IS, "c", 0, 1, body(1000))).hasSize(1);
    assertThat(s.receive("acme", AS_IS, "a", 0, 1, body(500))).hasSize(1);
    assertThat(s.receive("acme", AS_IS, "c", 0, 1, body(100))).hasSize(1);
    assertThat(Files.size(dir.resolve("scopes/acme/q/a"))).isEqualTo(500);
  }

  @Test
  void theGlobalScopeLeavesOutOtherScopesAndTheStaging() throws Exception {
    UploadService s = service(1000);
    assertThat(s.receive("acme", AS_IS, "a", 0, 1, body(900))).hasSize(1);
    assertThat(s.receive("global", AS_IS, "g", 0, 1, body(1000))).hasSize(1);
    assertThatThrownBy(() -> s.receive("global", AS_IS, "h", 0, 1, body(1)))
        .isInstanceOfSatisfying(UploadError.class, e -> assertThat(e.status()).isEqualTo(507));
  }

  @Test
  void stagedPartsStayWithinTheQuotaAndARefusedPartTakesItsUploadsParts() throws Exception {
    UploadService s = service(1000);
    assertThat(s.receive("acme", AS_IS, "big", 0, 3, body(600))).isEmpty();
    assertThatThrownBy(() -> s.receive("acme", AS_IS, "big", 1, 3, body(600)))
        .isInstanceOfSatisfying(
            UploadError.class,
            e -> {
              assertThat(e.status()).isEqualTo(507);
              assertThat(e.getMessage()).contains("staged parts", "take 600", "add 600");
            });
    assertThat(files()).isEmpty();
  }

  @Test
  void zeroIsUnbounded() throws Exception {
    UploadService s = service(0);
    assertThat(s.receive("acme", AS_IS, "a", 0, 1, body(5000))).hasSize(1);
    assertThat(s.maxScopeBytes()).isZero();
  }
}
