package io.symbolicate.api.auth;

import java.util.Set;

/** What one key allows: its scope, and the actions it may take there. */
public record Grant(String scope, Set<Action> actions) {
  public Grant {
    actions = Set.copyOf(actions);
  }

  public boolean allows(Action a) {
    return actions.contains(a);
  }
}
