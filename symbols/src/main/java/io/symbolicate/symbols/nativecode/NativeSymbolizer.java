package io.symbolicate.symbols.nativecode;

import io.symbolicate.symbols.table.PageSource;
import java.util.List;

/**
 * Looks up module-relative addresses with Breakpad's semantics. Needs only the header and a
 * source of decoded pages; each lookup touches exactly one page (the floor of its address).
 */
public final class NativeSymbolizer {
  private final NativeHeader header;
  private final PageSource<NativePage> pages;

  public NativeSymbolizer(NativeHeader header, PageSource<NativePage> pages) {
    this.header = header;
    this.pages = pages;
  }

  /** All pages decoded up front (CLI, tests, benchmarks). */
  public static NativeSymbolizer inMemory(NativeTable table) {
    return new NativeSymbolizer(table.nativeHeader(), new NativePageIndex(table.nativePages()));
  }

  public NativeHeader header() {
    return header;
  }

  /** The page {@link #lookup} reads for {@code address} (batches: {@link NativePage#lookupAll}), or null. */
  public NativePage page(long address) {
    return pages.floor(address);
  }

  /** Looks up the address as given; null when Breakpad finds nothing. */
  public NativeFrame lookup(long address) {
    NativePage page = pages.floor(address);
    return page == null ? null : page.lookup(address);
  }

  /**
   * Looks up a return address the way Breakpad does for caller frames on {@code adjust}; where
   * the table has a return pad for it (symbfile tables), the pad's answer wins.
   */
  public NativeFrame lookup(long address, CallerAdjust adjust) {
    NativeFrame pad = returnPad(address);
    return pad != null ? pad : lookup(adjust.apply(address));
  }

  /**
   * The return pad of a caller frame's return address, or null: pads are stored at the return
   * address minus one (the instruction inside the call, whatever the architecture), as Elastic's
   * agent and symbfiles have them.
   */
  public NativeFrame returnPad(long returnAddress) {
    if (returnAddress == 0) {
      return null;
    }
    NativePage page = pages.floor(returnAddress - 1);
    return page == null ? null : page.returnPad(returnAddress - 1);
  }

  /** The CFI rule sets at {@code address} (INIT rules, then deltas in order); empty when none. */
  public List<String> cfiRuleSets(long address) {
    NativePage page = pages.floor(address);
    return page == null ? List.of() : page.cfiRuleSets(address);
  }

  /** The STACK WIN record at {@code address}, or null. */
  public StackWinRecord stackWin(long address) {
    NativePage page = pages.floor(address);
    return page == null ? null : page.stackWin(address);
  }

  /** The parameter size of the FUNC starting at {@code funcStart}; 0 when none was given. */
  public long parameterSize(long funcStart) {
    NativePage page = pages.floor(funcStart);
    return page == null ? 0 : page.parameterSize(funcStart);
  }
}
