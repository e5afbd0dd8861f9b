package io.symbolicate.symbols.js;

import java.util.List;

/** Context lines around an original position, long lines trimmed around the column. */
public record JsContext(List<String> preContext, String contextLine, List<String> postContext) {}
