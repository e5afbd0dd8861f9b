package io.symbolicate.app.cli;

import picocli.CommandLine.IVersionProvider;

final class VersionProvider implements IVersionProvider {
  @Override
  public String[] getVersion() {
    String v = SymbolicatorCli.class.getPackage().getImplementationVersion();
    return new String[] {"symbolicator " + (v == null ? "dev" : v)};
  }
}
