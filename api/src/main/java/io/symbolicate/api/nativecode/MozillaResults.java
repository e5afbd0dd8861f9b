package io.symbolicate.api.nativecode;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.symbolicate.api.Json;
import io.symbolicate.schema.FrameStatus;
import io.symbolicate.schema.ModuleResult;
import io.symbolicate.schema.ModuleStatus;
import io.symbolicate.schema.SymbolicatedEvent;
import io.symbolicate.schema.SymbolicatedFrame;
import io.symbolicate.schema.SymbolicatedStack;
import io.symbolicate.symbolication.store.SymbolLookup;
import io.symbolicate.symbols.nativecode.NativeHeader;
import io.symbolicate.symbols.table.ModuleRef;
import io.symbolicate.symbols.table.TableKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One job's symbolicated event in Mozilla's terms: v5 frames ({@code frame}, {@code module},
 * {@code module_offset}, and when found {@code function}, {@code function_offset}, {@code file},
 * {@code line}, {@code inlines}) and {@code found_modules} (true, false, or null when a module is
 * not referenced or has no identifiers).
 */
final class MozillaResults {
  private final MozillaRequest.Job job;
  private final List<List<ObjectNode>> stacks = new ArrayList<>();
  private final Boolean[] found;

  MozillaResults(
      MozillaRequest.Job job, SymbolicatedEvent event, String scope, SymbolLookup lookup) {
    this.job = job;
    int n = job.memoryMap().size();
    found = new Boolean[n];
    String[] names = new String[n];
    for (int m = 0; m < n; m++) {
      String file = job.memoryMap().get(m).debugFile();
      names[m] = file.isEmpty() ? "<unknown>" : file;
    }
    for (ModuleResult r : event.getModules()) {
      int m = r.getIndex();
      if (m < 0 || m >= n) {
        continue;
      }
      found[m] =
          switch (r.getStatus()) {
            case found -> Boolean.TRUE;
            case missing, malformed, fetch_failed -> Boolean.FALSE;
            default -> null; // unused, or no identifiers to look up
          };
      if (r.getStatus() == ModuleStatus.found && r.getKey() != null) {
        // Mozilla names a found module by its code file (INFO CODE_ID), else the MODULE name
        SymbolLookup.Resolution res =
            lookup.resolve(new ModuleRef(scope, TableKind.NATIVE, r.getKey()));
        NativeHeader h = lookup.header(res, NativeHeader::decode);
        if (h != null && h.displayName() != null && !h.displayName().isEmpty()) {
          names[m] = h.displayName();
        }
      }
    }
    List<SymbolicatedStack> outStacks = event.getStacks();
    for (int s = 0; s < job.stacks().size(); s++) {
      List<MozillaRequest.Frame> in = job.stacks().get(s);
      List<SymbolicatedFrame> sym = s < outStacks.size() ? outStacks.get(s).getFrames() : List.of();
      List<ObjectNode> frames = new ArrayList<>(in.size());
      int k = 0;
      for (int i = 0; i < in.size(); i++) {
        MozillaRequest.Frame f = in.get(i);
        ObjectNode o = Json.MAPPER.createObjectNode();
        o.put("frame", i);
        o.put("module", f.moduleIndex() >= 0 ? names[f.moduleIndex()] : "<unknown>");
        if (f.hasOffset()) {
          o.put("module_offset", hex(f.offset()));
        } else {
          o.put("module_offset", f.text());
        }
        // the step's frames for input frame i: inlined ones (innermost first), then the real one
        List<SymbolicatedFrame> inlined = new ArrayList<>();
        SymbolicatedFrame outer = null;
        while (k < sym.size() && sym.get(k).getOriginalIndex() == i) {
          SymbolicatedFrame sf = sym.get(k++);
          if (Boolean.TRUE.equals(sf.getInlined())) {
            inlined.add(sf);
          } else {
            outer = sf;
          }
        }
        if (outer != null
            && outer.getStatus() == FrameStatus.symbolicated
            && outer.getFunction() != null) {
          o.put("function", outer.getFunction().toString());
          if (outer.getFunctionOffset() != null) {
            o.put("function_offset", hex(outer.getFunctionOffset()));
          }
          putLocation(o, java.util.Objects.toString(outer.getFile(), null), outer.getLine());
          if (!inlined.isEmpty()) {
            ArrayNode arr = o.putArray("inlines");
            for (SymbolicatedFrame in2 : inlined) {
              ObjectNode io = arr.addObject();
              io.put("function", java.util.Objects.toString(in2.getFunction(), null));
              putLocation(io, java.util.Objects.toString(in2.getFile(), null), in2.getLine());
            }
          }
        }
        frames.add(o);
      }
      stacks.add(frames);
    }
  }

  /** {@code file} when known, {@code line} only with a file and when not 0 (as Mozilla). */
  private static void putLocation(ObjectNode o, String file, Integer line) {
    if (file != null && !file.isEmpty()) {
      o.put("file", file);
      if (line != null && line != 0) {
        o.put("line", line);
      }
    }
  }

  /** Python's {@code hex()}: "0x5380", "-0x1". */
  static String hex(long v) {
    return v < 0 ? "-0x" + Long.toHexString(-v) : "0x" + Long.toHexString(v);
  }

  List<List<ObjectNode>> stacks() {
    return stacks;
  }

  /** {@code found_modules}: for each memory-map entry as sent, true, false or null. */
  ObjectNode foundModules() {
    ObjectNode o = Json.MAPPER.createObjectNode();
    for (int m = 0; m < found.length; m++) {
      String key = job.memoryMap().get(m).key();
      if (found[m] == null) {
        if (!o.has(key)) {
          o.putNull(key);
        }
      } else {
        o.put(key, found[m]);
      }
    }
    return o;
  }

  /** {@code knownModules} (v4): per memory-map entry. */
  ArrayNode knownModules() {
    ArrayNode a = Json.MAPPER.createArrayNode();
    ObjectNode byKey = foundModules();
    for (MozillaRequest.Module m : job.memoryMap()) {
      a.add(byKey.get(m.key()));
    }
    return a;
  }

  /** Per module key, how many frames referred to it (Mozilla's {@code stacks_per_module}). */
  void countFramesPerModule(Map<String, Integer> into) {
    for (List<MozillaRequest.Frame> stack : job.stacks()) {
      for (MozillaRequest.Frame f : stack) {
        if (f.moduleIndex() >= 0) {
          into.merge(job.memoryMap().get(f.moduleIndex()).key(), 1, Integer::sum);
        }
      }
    }
  }
}
