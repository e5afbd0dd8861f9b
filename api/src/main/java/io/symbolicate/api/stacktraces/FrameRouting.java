package io.symbolicate.api.stacktraces;

import java.util.ArrayList;
import java.util.List;

/**
 * Which engine answers each frame of a {@code /symbolicate} request: a frame whose {@code
 * addr_mode} is {@code rel:N} of a {@code pe_dotnet} module is a .NET frame (method token and IL
 * offset), a {@code rel:N} past the module list is in no image, every other frame is native
 * (found by address, or relative to its module). A pure function of the request: computed where
 * it is needed.
 */
final class FrameRouting {
  enum Kind {
    NATIVE,
    DOTNET,
    NO_IMAGE
  }

  private final List<Kind[]> kinds;
  private final boolean[] dotnetUsed;

  private FrameRouting(List<Kind[]> kinds, boolean[] dotnetUsed) {
    this.kinds = kinds;
    this.dotnetUsed = dotnetUsed;
  }

  static FrameRouting of(SymbolicateRequest request) {
    List<SymbolicateRequest.Module> modules = request.modules();
    boolean[] used = new boolean[modules.size()];
    List<Kind[]> kinds = new ArrayList<>(request.stacktraces().size());
    for (SymbolicateRequest.Stacktrace st : request.stacktraces()) {
      Kind[] k = new Kind[st.frames().size()];
      for (int f = 0; f < k.length; f++) {
        SymbolicateRequest.Frame fr = st.frames().get(f);
        if (!fr.relative()) {
          k[f] = Kind.NATIVE;
        } else if (fr.moduleIndex() >= modules.size()) {
          k[f] = Kind.NO_IMAGE;
        } else if (modules.get(fr.moduleIndex()).dotnet()) {
          k[f] = Kind.DOTNET;
          used[fr.moduleIndex()] = true;
        } else {
          k[f] = Kind.NATIVE;
        }
      }
      kinds.add(k);
    }
    return new FrameRouting(kinds, used);
  }

  Kind kind(int stack, int frame) {
    return kinds.get(stack)[frame];
  }

  /** Whether a frame is in the {@code pe_dotnet} module {@code m}. */
  boolean dotnetModuleUsed(int m) {
    return dotnetUsed[m];
  }
}
